import { InvalidTokenError, RateLimitedError, ValidationError } from '@authz/shared/errors';
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

const environment = useTestEnvironment();
let identity: IdentityHarness;

beforeAll(async () => {
  identity = await startIdentity(environment, {
    RESEND_VERIFICATION_MIN_INTERVAL: '3',
    RESEND_VERIFICATION_MAX_PER_WINDOW: '3',
    RESEND_VERIFICATION_WINDOW: '120',
  });
});
afterAll(() => identity.close());

const linksTo = (to: string, count: number) => verificationLinks(identity, to, count);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('VerifyEmail (interface.md 4.2, docs/decisions.md #5)', () => {
  it('verifies once; of two concurrent uses exactly one wins; reuse is an invalid token', async () => {
    const { user } = await identity.client.register({
      email: 'Carol@example.com',
      password: 'a fine passphrase',
    });
    const [link] = await linksTo('Carol@example.com', 1);
    const token = tokenOf(link!);

    const results = await Promise.allSettled([
      identity.client.verifyEmail({ token, origin: ORIGIN }),
      identity.client.verifyEmail({ token, origin: ORIGIN }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled').map((result) => result.value)).toEqual([
      expect.objectContaining({ email: 'Carol@example.com' }),
    ]);
    const loser = results.find((result) => result.status === 'rejected');
    expect(loser?.reason).toBeInstanceOf(InvalidTokenError);
    expect(loser?.reason).toMatchObject({
      code: 'INVALID_TOKEN',
      statusCode: 400,
      message: 'Invalid or expired token',
    });

    const { user: fresh } = await identity.client.getUser({ userId: user!.id });
    expect(fresh?.emailVerified).toBe(true);
    expect(Number(fresh?.updatedAt)).toBeGreaterThanOrEqual(Number(fresh?.createdAt));
    const audit = await identity.sql.query(
      `SELECT actor_user_id::text, ip FROM identity.audit_events WHERE type = 'email_verification'`,
    );
    expect(audit.rows).toEqual([{ actor_user_id: user!.id, ip: ORIGIN.ip }]);
  });

  it('refuses malformed, unknown and expired tokens', async () => {
    const malformed = await rejection(identity.client.verifyEmail({ token: 'abc' }));
    expect(malformed).toBeInstanceOf(ValidationError);
    expect(malformed).toMatchObject({
      details: [{ path: 'token', message: 'must be 64 hexadecimal characters' }],
    });

    expect(await rejection(identity.client.verifyEmail({ token: 'a'.repeat(64) }))).toBeInstanceOf(
      InvalidTokenError,
    );

    await identity.client.register({ email: 'dave@example.com', password: 'a fine passphrase' });
    const [link] = await linksTo('dave@example.com', 1);
    await identity.sql.query(
      `UPDATE identity.verification_tokens SET expires_at = now() - interval '1 second'`,
    );
    expect(await rejection(identity.client.verifyEmail({ token: tokenOf(link!) }))).toBeInstanceOf(
      InvalidTokenError,
    );
  });
});

describe('ResendVerification (interface.md 4.2, interface.md 8)', () => {
  it('queues a new link for an unverified address only, answering the same for all', async () => {
    await identity.client.register({ email: 'erin@example.com', password: 'a fine passphrase' });
    await linksTo('erin@example.com', 1);
    expect(await identity.client.resendVerification({ email: ' ERIN@example.com ' })).toEqual(
      await identity.client.resendVerification({ email: 'nobody@example.com' }),
    );
    const links = await linksTo('erin@example.com', 2);
    await identity.client.verifyEmail({ token: tokenOf(links[1]!) });
    // Carol is verified: no mail, same empty answer.
    await identity.client.resendVerification({ email: 'carol@example.com' });
    await sleep(200);
    const { rows } = await identity.sql.query(`SELECT count(*)::int AS n FROM identity.mail_outbox`);
    expect(rows[0].n).toBe(4); // carol, dave, erin, erin again
  });

  it('applies the interval and the window cap to every address, known or not', async () => {
    const exercise = async (email: string) => {
      if (email === 'frank@example.com')
        await identity.client.register({ email, password: 'a fine passphrase' });
      await identity.client.resendVerification({ email });
      const tooSoon = await rejection(identity.client.resendVerification({ email }));
      expect(tooSoon).toBeInstanceOf(RateLimitedError);
      expect(tooSoon).toMatchObject({ code: 'RATE_LIMITED', statusCode: 429 });
      // Whole seconds left of the 3 s interval, rounded up: 3 unless this machine is slow.
      expect(Number((tooSoon as RateLimitedError).attributes.retryAfterSeconds)).toBeOneOf([1, 2, 3]);
      await sleep(3100);
      await identity.client.resendVerification({ email: email.toUpperCase() });
      await sleep(3100);
      await identity.client.resendVerification({ email });
      await sleep(3100);
      const capped = await rejection(identity.client.resendVerification({ email }));
      expect(capped).toBeInstanceOf(RateLimitedError);
      expect(Number((capped as RateLimitedError).attributes.retryAfterSeconds)).toBeGreaterThan(100);
    };
    await Promise.all(['frank@example.com', 'ghost@example.com'].map(exercise));
  });

  it('rejects a malformed address', async () => {
    const error = await rejection(identity.client.resendVerification({ email: 'nope' }));
    expect(error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'email', message: 'must be a valid email address' }],
    });
  });
});
