import { InvalidCredentialsError, NotFoundError, ValidationError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, rejection, startIdentity, type IdentityHarness } from '../../test/identity-harness.js';

const environment = useTestEnvironment();
let identity: IdentityHarness;
let userId: string;

beforeAll(async () => {
  identity = await startIdentity(environment);
  const { user } = await identity.client.register({
    email: 'Heidi@example.com',
    password: 'a fine passphrase',
  });
  userId = user!.id;
});
afterAll(() => identity.close());

describe('CheckCredentials (interface.md 4.2, docs/decisions.md #4)', () => {
  it('opens a session for the right password, whatever the address case', async () => {
    const before = Math.floor(Date.now() / 1000);
    const result = await identity.client.checkCredentials({
      email: ' heidi@EXAMPLE.com',
      password: 'a fine passphrase',
      origin: ORIGIN,
    });
    expect(result.user).toMatchObject({ id: userId, email: 'Heidi@example.com', emailVerified: false });
    expect(Number(result.authTime)).toBeGreaterThanOrEqual(before);
    const { rows } = await identity.sql.query(
      `SELECT user_id::text, extract(epoch FROM expires_at - auth_time)::int AS ttl, ended_at FROM identity.sessions WHERE id = $1`,
      [result.sessionId],
    );
    expect(rows).toEqual([{ user_id: userId, ttl: 30 * 86_400, ended_at: null }]);
  });

  it('answers unknown email and wrong password identically, and audits both without the password', async () => {
    const unknown = await rejection(
      identity.client.checkCredentials({ email: 'nobody@example.com', password: 'a fine passphrase' }),
    );
    const wrong = await rejection(
      identity.client.checkCredentials({ email: 'heidi@example.com', password: 'not the one at all' }),
    );
    for (const error of [unknown, wrong]) {
      expect(error).toBeInstanceOf(InvalidCredentialsError);
      expect(error).toMatchObject({
        code: 'INVALID_CREDENTIALS',
        statusCode: 401,
        message: 'Invalid email or password',
      });
    }
    expect(JSON.stringify(unknown)).toBe(JSON.stringify(wrong));
    const { rows } = await identity.sql.query(
      `SELECT type, details::text FROM identity.audit_events WHERE type LIKE 'login_%' ORDER BY id`,
    );
    expect(rows.map((row) => row.type)).toEqual(['login_success', 'login_failure', 'login_failure']);
    expect(rows.map((row) => row.details).join()).not.toMatch(/passphrase|not the one|nobody@/);
  });

  it('answers an address holding U+0000 as an unknown one, without failing the lookup', async () => {
    const error = await rejection(
      identity.client.checkCredentials({ email: 'heidi\u0000@example.com', password: 'a fine passphrase' }),
    );
    expect(error).toBeInstanceOf(InvalidCredentialsError);
  });

  it('requires both fields', async () => {
    const error = await rejection(identity.client.checkCredentials({ email: ' ', password: '' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      details: [
        { path: 'email', message: 'is required' },
        { path: 'password', message: 'is required' },
      ],
    });
  });
});

describe('EndSession, GetUser, EnsureDeveloper', () => {
  it('ends a session idempotently and audits the logout once', async () => {
    const { sessionId } = await identity.client.checkCredentials({
      email: 'heidi@example.com',
      password: 'a fine passphrase',
    });
    await identity.client.endSession({ sessionId, userId, origin: ORIGIN });
    await identity.client.endSession({ sessionId, userId, origin: ORIGIN });
    const { rows } = await identity.sql.query(`SELECT ended_at FROM identity.sessions WHERE id = $1`, [
      sessionId,
    ]);
    expect(rows[0].ended_at).toBeInstanceOf(Date);
    const audit = await identity.sql.query(`SELECT details FROM identity.audit_events WHERE type = 'logout'`);
    expect(audit.rows).toEqual([{ details: { sessionId } }]);
    const malformed = await rejection(identity.client.endSession({ sessionId: 'x', userId }));
    expect(malformed).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'sessionId', message: 'must be a UUID' }],
    });
  });

  it('returns a user by id, or NotFoundError', async () => {
    const { user } = await identity.client.getUser({ userId });
    expect(user).toMatchObject({ id: userId, email: 'Heidi@example.com' });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const error = await rejection(identity.client.getUser({ userId: id }));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ code: 'NOT_FOUND', statusCode: 404, message: 'Not found' });
    }
  });

  it('creates one developer record on first use, even under concurrent calls', async () => {
    const ids = await Promise.all([1, 2, 3].map(() => identity.client.ensureDeveloper({ userId })));
    expect(new Set(ids.map((answer) => answer.developerId)).size).toBe(1);
    expect((await identity.client.ensureDeveloper({ userId })).developerId).toBe(ids[0]!.developerId);
    const missing = await rejection(
      identity.client.ensureDeveloper({ userId: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(missing).toBeInstanceOf(NotFoundError);
  });
});
