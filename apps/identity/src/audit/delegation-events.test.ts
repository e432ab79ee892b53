import { NotFoundError, ValidationError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ORIGIN,
  rejection,
  startIdentity,
  tokenOf,
  verificationLinks,
  type IdentityHarness,
} from '../../test/identity-harness.js';

// docs/identity.md #14, #15: what oauth's delegation grants ask of identity.
const environment = useTestEnvironment();
let identity: IdentityHarness;
let verified: { id: string };

beforeAll(async () => {
  identity = await startIdentity(environment);
  verified = (await identity.client.register({ email: 'Ada@Example.com', password: 'a fine passphrase' }))
    .user!;
  await identity.client.register({ email: 'bob@example.com', password: 'a fine passphrase' });
  const [link] = await verificationLinks(identity, 'Ada@Example.com', 1);
  await identity.client.verifyEmail({ token: tokenOf(link!) });
});
afterAll(() => identity.close());

describe('AuditService.RecordAuditEvent', () => {
  it('records a delegation with the user, the client, the actor chain and the details', async () => {
    await identity.audit.recordAuditEvent({
      type: 'token_exchange',
      userId: verified.id,
      clientId: 'agent-2',
      actorChain: ['agent-2', 'agent-1'],
      origin: ORIGIN,
      details: { subjectJti: 'j-1', issuedJti: 'j-2' },
    });
    const { rows } = await identity.sql.query(
      `SELECT type, actor_user_id::text AS actor, ip, user_agent, details
         FROM identity.audit_events WHERE type = 'token_exchange'`,
    );
    expect(rows).toEqual([
      {
        type: 'token_exchange',
        actor: verified.id,
        ip: ORIGIN.ip,
        user_agent: ORIGIN.userAgent,
        details: {
          subjectJti: 'j-1',
          issuedJti: 'j-2',
          clientId: 'agent-2',
          actorChain: ['agent-2', 'agent-1'],
        },
      },
    ]);
  });

  it('refuses any other event type, so no caller can forge a login', async () => {
    const error = await rejection(
      identity.audit.recordAuditEvent({ type: 'login_success', userId: verified.id, clientId: 'c' }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details).toEqual([{ path: 'type', message: expect.any(String) }]);
    const { rows } = await identity.sql.query(
      `SELECT count(*)::int AS n FROM identity.audit_events WHERE type = 'login_success'`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('refuses a malformed user id', async () => {
    const error = await rejection(
      identity.audit.recordAuditEvent({ type: 'id_jag_issued', userId: 'nobody', clientId: 'c' }),
    );
    expect((error as ValidationError).details).toEqual([{ path: 'userId', message: 'must be a user id' }]);
  });
});

describe('AccountLookupService.FindUserByVerifiedEmail', () => {
  it('finds the account whose address is verified, compared case-insensitively', async () => {
    const { user } = await identity.accounts.findUserByVerifiedEmail({ email: 'ada@EXAMPLE.com' });
    expect(user?.id).toBe(verified.id);
    expect(user?.email).toBe('Ada@Example.com');
  });

  it('answers NotFoundError alike for an unverified, unknown or malformed address', async () => {
    for (const email of ['bob@example.com', 'carol@example.com', 'not an address']) {
      expect(await rejection(identity.accounts.findUserByVerifiedEmail({ email }))).toBeInstanceOf(
        NotFoundError,
      );
    }
  });
});
