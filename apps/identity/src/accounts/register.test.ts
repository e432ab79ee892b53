import { ConflictError, ValidationError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ORIGIN,
  eventually,
  rejection,
  startIdentity,
  type IdentityHarness,
} from '../../test/identity-harness.js';

const environment = useTestEnvironment();
let identity: IdentityHarness;

beforeAll(async () => {
  identity = await startIdentity(environment);
});
afterAll(() => identity.close());

describe('Register (interface.md 4.2, docs/decisions.md #1, #4, #29)', () => {
  it('creates an unverified user in the default realm and queues its verification mail', async () => {
    const before = Date.now();
    const { user } = await identity.client.register({
      email: '  Alice@Example.COM ',
      password: 'correct horse battery',
      origin: ORIGIN,
    });
    const realm = await identity.sql.query(`SELECT id::text FROM identity.realms WHERE is_default`);
    expect(user).toMatchObject({
      email: 'Alice@Example.COM',
      emailVerified: false,
      realmId: realm.rows[0].id,
    });
    expect(user?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(user?.createdAt)).toBeGreaterThanOrEqual(before - 5);
    expect(user?.updatedAt).toBeUndefined();

    const outbox = await eventually(async () => {
      const { rows } = await identity.sql.query(
        `SELECT id::text, enqueued_at, payload FROM identity.mail_outbox`,
      );
      return rows[0]?.enqueued_at ? rows[0] : undefined;
    });
    expect(outbox.payload).toBeNull();
    const job = await identity.mailQueue.getJob(outbox.id);
    expect(job?.name).toBe('verification-email');
    expect(job?.id).toBe(outbox.id);
    expect(job?.data).toEqual({
      to: 'Alice@Example.COM',
      verifyUrl: expect.stringMatching(/^http:\/\/localhost:3000\/ui\/verify-email\?token=[0-9a-f]{64}$/),
    });
    expect(job?.opts).toMatchObject({
      attempts: 100,
      backoff: { type: 'capped-exponential', delay: 1000 },
      removeOnComplete: true,
      removeOnFail: 5000,
    });

    // Nothing secret in clear: the password is an argon2id hash, the token a keyed hash.
    const token = new URL(job?.data.verifyUrl).searchParams.get('token') ?? '';
    const dump = await identity.sql.query(
      `SELECT (SELECT json_agg(t) FROM identity.password_credentials t)::text AS c,
              (SELECT json_agg(t) FROM identity.verification_tokens t)::text AS v,
              (SELECT json_agg(t) FROM identity.mail_outbox t)::text AS o,
              (SELECT json_agg(t) FROM identity.audit_events t)::text AS a`,
    );
    const stored = Object.values(dump.rows[0]).join('\n');
    expect(stored).not.toContain('correct horse battery');
    expect(stored).not.toContain(token);
    expect(stored).toContain('$argon2id$v=19$m=1024,t=1,p=1$');

    const audit = await identity.sql.query(
      `SELECT type, actor_user_id::text, ip, user_agent FROM identity.audit_events`,
    );
    expect(audit.rows).toEqual([
      { type: 'registration', actor_user_id: user?.id, ip: ORIGIN.ip, user_agent: 'vitest' },
    ]);
  });

  it('answers a duplicate address, in any case, with a generic conflict', async () => {
    const error = await rejection(
      identity.client.register({ email: 'alice@example.com', password: 'another good one' }),
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      code: 'CONFLICT',
      statusCode: 409,
      message: 'Registration could not be completed',
    });
    expect(JSON.stringify(error)).not.toMatch(/alice|email_lower|users_/i);
  });

  it('lets exactly one of two concurrent registrations of an address through', async () => {
    const results = await Promise.allSettled(
      ['Race@example.com', 'race@EXAMPLE.com'].map((email) =>
        identity.client.register({ email, password: 'a fine passphrase' }),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const failure = results.find((result) => result.status === 'rejected');
    expect(failure?.reason).toBeInstanceOf(ConflictError);
    const { rows } = await identity.sql.query(
      `SELECT count(*)::int AS n FROM identity.users WHERE email_lower = 'race@example.com'`,
    );
    expect(rows[0].n).toBe(1);
  });

  it('rejects each bad field once, with its path', async () => {
    const error = await rejection(
      identity.client.register({
        email: 'not-an-email',
        password: 'short',
        realmId: '00000000-0000-4000-8000-000000000000',
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      code: 'VALIDATION_ERROR',
      statusCode: 400,
      message: 'Validation error',
      details: [
        { path: 'email', message: 'must be a valid email address' },
        { path: 'password', message: 'must be 8 to 128 characters long' },
        { path: 'realmId', message: 'must be the default realm' },
      ],
    });
  });

  it('names a missing address and a missing password beside each other', async () => {
    const missing = await rejection(identity.client.register({ email: ' ', password: '' }));
    expect(missing).toMatchObject({
      details: [
        { path: 'email', message: 'is required' },
        { path: 'password', message: 'is required' },
      ],
    });
    const badEmail = await rejection(identity.client.register({ email: 'not-an-email', password: '' }));
    expect(badEmail).toMatchObject({
      details: [
        { path: 'email', message: 'must be a valid email address' },
        { path: 'password', message: 'is required' },
      ],
    });
  });

  it('refuses common passwords and the local part; accepts the default realm by id', async () => {
    const common = await rejection(
      identity.client.register({ email: 'bob@example.com', password: 'password123' }),
    );
    expect(common).toMatchObject({ details: [{ path: 'password', message: 'is too common' }] });
    const local = await rejection(
      identity.client.register({ email: 'Bob.Builder@example.com', password: 'bob.builder' }),
    );
    expect(local).toMatchObject({
      details: [{ path: 'password', message: 'must not be the local part of the email address' }],
    });
    const realm = await identity.sql.query(`SELECT id::text FROM identity.realms WHERE is_default`);
    const { user } = await identity.client.register({
      email: 'bob@example.com',
      password: 'a fine passphrase',
      realmId: realm.rows[0].id,
    });
    expect(user?.realmId).toBe(realm.rows[0].id);
  });
});
