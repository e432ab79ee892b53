import { keyedHash } from '@authz/shared/crypto';
import { InvalidCredentialsError, UnauthorizedError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, rejection, startIdentity, type IdentityHarness } from '../../test/identity-harness.js';

// Hosted sign-in sessions (interface.md 4.5, 4.6, 5; docs/identity.md #11, #12) over real gRPC.
const environment = useTestEnvironment();
let identity: IdentityHarness;
let userId: string;
let createdAt: bigint;

const PASSWORD = 'a fine passphrase';
const HEX64 = /^[0-9a-f]{64}$/;

beforeAll(async () => {
  identity = await startIdentity(environment);
  const { user } = await identity.client.register({ email: 'Ivan@example.com', password: PASSWORD });
  userId = user!.id;
  createdAt = user!.createdAt;
});
afterAll(() => identity.close());

const hostedSignIn = () =>
  identity.client.checkCredentials({
    email: 'ivan@example.com',
    password: PASSWORD,
    origin: ORIGIN,
    browserSession: true,
  });

async function storedSession(sessionId: string) {
  const { rows } = await identity.sql.query(
    `SELECT token_hash, row_to_json(s)::text AS everything FROM identity.sessions s WHERE id = $1`,
    [sessionId],
  );
  return rows[0] as { token_hash: string | null; everything: string };
}

describe('CheckCredentials with browser_session', () => {
  it('returns a cookie token only when asked, and stores only its keyed hash', async () => {
    const firstParty = await identity.client.checkCredentials({
      email: 'ivan@example.com',
      password: PASSWORD,
    });
    expect(firstParty.sessionToken).toBeUndefined();
    expect((await storedSession(firstParty.sessionId)).token_hash).toBeNull();

    const hosted = await hostedSignIn();
    const token = hosted.sessionToken!;
    expect(token).toMatch(HEX64);
    const stored = await storedSession(hosted.sessionId);
    expect(stored.token_hash).toBe(keyedHash(identity.secretHashKey, token));
    expect(stored.everything).not.toContain(token);
    const audit = await identity.sql.query(`SELECT details::text FROM identity.audit_events`);
    expect(audit.rows.map((row) => row.details).join()).not.toContain(token);

    const again = await hostedSignIn();
    expect(again.sessionToken).toMatch(HEX64);
    expect(again.sessionToken).not.toBe(token);
  });

  it('audits hosted sign-ins like first-party ones, and refuses unknown emails the same way', async () => {
    await identity.sql.query(`DELETE FROM identity.audit_events`);
    await hostedSignIn();
    const unknown = await rejection(
      identity.client.checkCredentials({
        email: 'nobody@example.com',
        password: PASSWORD,
        browserSession: true,
      }),
    );
    const wrong = await rejection(
      identity.client.checkCredentials({
        email: 'ivan@example.com',
        password: 'not it at all',
        browserSession: true,
      }),
    );
    const firstParty = await rejection(
      identity.client.checkCredentials({ email: 'nobody@example.com', password: PASSWORD }),
    );
    expect(unknown).toBeInstanceOf(InvalidCredentialsError);
    expect(JSON.stringify(unknown)).toBe(JSON.stringify(wrong));
    expect(JSON.stringify(unknown)).toBe(JSON.stringify(firstParty));
    const { rows } = await identity.sql.query(
      `SELECT type, actor_user_id::text AS actor, ip, user_agent, details FROM identity.audit_events ORDER BY id`,
    );
    const emailHash = (email: string) => keyedHash(identity.secretHashKey, `audit:${email}`);
    expect(rows).toEqual([
      {
        type: 'login_success',
        actor: userId,
        ip: ORIGIN.ip,
        user_agent: ORIGIN.userAgent,
        details: { browserSession: true, amr: ['pwd'] },
      },
      {
        type: 'login_failure',
        actor: null,
        ip: null,
        user_agent: null,
        details: { emailHash: emailHash('nobody@example.com'), knownUser: false, browserSession: true },
      },
      {
        type: 'login_failure',
        actor: userId,
        ip: null,
        user_agent: null,
        details: { emailHash: emailHash('ivan@example.com'), knownUser: true, browserSession: true },
      },
      {
        type: 'login_failure',
        actor: null,
        ip: null,
        user_agent: null,
        details: { emailHash: emailHash('nobody@example.com'), knownUser: false },
      },
    ]);
  });
});

describe('GetBrowserSession', () => {
  it('answers the session, its user, auth_time and a CSRF token derived from the cookie value', async () => {
    const hosted = await hostedSignIn();
    const token = hosted.sessionToken!;
    const answer = await identity.client.getBrowserSession({ sessionToken: token });
    expect(answer).toEqual({
      $typeName: 'authz.identity.v1.GetBrowserSessionResponse',
      sessionId: hosted.sessionId,
      user: {
        $typeName: 'authz.identity.v1.User',
        id: userId,
        email: 'Ivan@example.com',
        emailVerified: false,
        realmId: hosted.user!.realmId,
        createdAt,
      },
      authTime: hosted.authTime,
      csrfToken: keyedHash(identity.secretHashKey, `csrf:${token}`),
      amr: ['pwd'],
    });
    expect(answer.csrfToken).toMatch(HEX64);
    expect(answer.csrfToken).not.toBe(keyedHash(identity.secretHashKey, token));
  });

  it('keeps one CSRF token per session, different across sessions', async () => {
    const first = (await hostedSignIn()).sessionToken!;
    const second = (await hostedSignIn()).sessionToken!;
    const csrf = async (sessionToken: string) =>
      (await identity.client.getBrowserSession({ sessionToken })).csrfToken;
    const [a1, a2, b] = await Promise.all([csrf(first), csrf(first), csrf(second)]);
    expect(a1).toBe(a2);
    expect(b).not.toBe(a1);
  });

  it('refuses unknown, malformed, ended and expired tokens with one bare UnauthorizedError', async () => {
    const valid = (await hostedSignIn()).sessionToken!;
    const ended = await hostedSignIn();
    await identity.client.endSession({ sessionId: ended.sessionId, userId });
    const expired = await hostedSignIn();
    await identity.sql.query(
      `UPDATE identity.sessions SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [expired.sessionId],
    );
    const firstParty = await identity.client.checkCredentials({
      email: 'ivan@example.com',
      password: PASSWORD,
    });

    const refused = [
      'a'.repeat(64),
      '',
      valid.slice(0, 63),
      `${valid}0`,
      valid.toUpperCase(),
      ` ${valid}`,
      keyedHash(identity.secretHashKey, valid),
      firstParty.sessionId,
      ended.sessionToken!,
      expired.sessionToken!,
    ];
    const errors = await Promise.all(
      refused.map((sessionToken) => rejection(identity.client.getBrowserSession({ sessionToken }))),
    );
    for (const error of errors) {
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(error).toMatchObject({ code: 'UNAUTHORIZED', statusCode: 401, message: 'Unauthorized' });
      expect(JSON.stringify(error)).toBe(JSON.stringify(errors[0]));
    }
    // The valid one still works: the refusals are about the values, not the session store.
    expect((await identity.client.getBrowserSession({ sessionToken: valid })).user?.id).toBe(userId);
  });
});
