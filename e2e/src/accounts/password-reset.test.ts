import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { call } from '../support/clients.js';
import { useSuite } from '../support/use-suite.js';
import {
  accessTokenStatus,
  INVALID_TOKEN,
  login,
  mailsTo,
  NEW_PASSWORD,
  newEmail,
  PASSWORD,
  RATE_LIMITED,
  refresh,
  register,
  signIn,
  sleep,
  tokenOfLink,
} from './account-scenes.js';

// interface.md 4.10, password reset, end to end: the gateway, identity's outbox, the
// mailer-worker and the SMTP sink, oauth's revocation; real PostgreSQL and Redis.
const context = useSuite({
  smtp: true,
  // The per-IP budget (every request here comes from one address) is shown in account-limits.test.ts.
  gatewayEnv: { LOGIN_RATE_LIMIT: '1000' },
  serviceEnv: {
    RESEND_VERIFICATION_MIN_INTERVAL: '1',
    RESEND_VERIFICATION_MAX_PER_WINDOW: '3',
    RESEND_VERIFICATION_WINDOW: '3600',
  },
});

const FORGOT_MESSAGE = 'If the address belongs to an account, a password reset email is on its way';
const RESET_SUBJECT = 'Reset your password';

const forgot = (email: unknown) => call(context.suite, 'POST', '/auth/forgot-password', { body: { email } });
const reset = (token: unknown, password: unknown = NEW_PASSWORD) =>
  call(context.suite, 'POST', '/auth/reset-password', { body: { token, password } });

async function resetLink(email: string, count = 1): Promise<string> {
  const mails = await mailsTo(context, email, RESET_SUBJECT, count);
  const mail = mails[count - 1]!;
  expect(mail.links).toHaveLength(1);
  expect(mail.links[0]).toMatch(
    new RegExp(`^${context.suite.baseUrl}/ui/reset-password\\?token=[0-9a-f]{64}$`),
  );
  expect(mail.html).toContain('href=');
  return mail.links[0]!;
}

describe('POST /auth/forgot-password and /auth/reset-password', () => {
  it('resets from the mailed link once; earlier access and refresh tokens stop working', async () => {
    const email = newEmail('reset');
    await register(context, email);
    const before = await signIn(context, email);
    const other = await signIn(context, email);
    expect(await accessTokenStatus(context, before.access_token)).toBe(200);

    const asked = await forgot(email);
    expect(asked).toMatchObject({ status: 200, body: { message: FORGOT_MESSAGE } });
    const link = await resetLink(email);

    // The hosted page's GET changes nothing: the link still works afterwards.
    expect((await fetch(link)).status).toBe(200);

    expect(await reset(tokenOfLink(link))).toMatchObject({
      status: 200,
      body: { message: 'Password reset' },
    });
    // Single use: the exact envelope of interface.md 4.2.
    const again = await reset(tokenOfLink(link));
    expect(again.status).toBe(400);
    expect(again.body).toEqual(INVALID_TOKEN);

    for (const tokens of [before, other]) {
      expect(await accessTokenStatus(context, tokens.access_token)).toBe(401);
      expect(await refresh(context, tokens.refresh_token)).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
    }
    expect((await login(context, email, PASSWORD)).status).toBe(401);
    const after = await signIn(context, email, NEW_PASSWORD);
    expect(await accessTokenStatus(context, after.access_token)).toBe(200);
    // The mailbox was proven: the address is verified.
    expect(decodeJwt(after.access_token).email_verified).toBe(true);
    const [notice] = await mailsTo(context, email, 'Your password was changed');
    expect(notice!.links).toEqual([]);
  });

  it('invalidates older links when a newer one is mailed', async () => {
    const email = newEmail('newer');
    await register(context, email);
    expect((await forgot(email)).status).toBe(200);
    const first = await resetLink(email, 1);
    await sleep(1100);
    expect((await forgot(email)).status).toBe(200);
    const second = await resetLink(email, 2);
    expect(second).not.toBe(first);
    expect(await reset(tokenOfLink(first))).toEqual(
      expect.objectContaining({ status: 400, body: INVALID_TOKEN }),
    );
    expect((await reset(tokenOfLink(second))).status).toBe(200);
  });

  it('answers the same for an unknown address and sends it nothing', async () => {
    const known = newEmail('known');
    const unknown = newEmail('unknown');
    await register(context, known);
    const forUnknown = await forgot(unknown);
    const forKnown = await forgot(known);
    expect(forUnknown.status).toBe(forKnown.status);
    expect(forUnknown.body).toEqual(forKnown.body);
    expect([...forUnknown.headers.keys()].sort()).toEqual([...forKnown.headers.keys()].sort());
    await resetLink(known);
    await sleep(500);
    expect(context.smtp.received.filter((mail) => mail.envelopeTo.includes(unknown))).toEqual([]);
  });

  it('limits each address, known or not, with Retry-After', async () => {
    const known = newEmail('limited');
    await register(context, known);
    for (const email of [known, newEmail('limited-unknown')]) {
      expect((await forgot(email)).status).toBe(200);
      const tooSoon = await forgot(email);
      expect(tooSoon.status).toBe(429);
      expect(tooSoon.body).toEqual(RATE_LIMITED);
      expect(tooSoon.headers.get('retry-after')).toBe('1');
      await sleep(1100);
      expect((await forgot(email.toUpperCase())).status).toBe(200);
      await sleep(1100);
      expect((await forgot(email)).status).toBe(200);
      await sleep(1100);
      const capped = await forgot(email);
      expect(capped.status).toBe(429);
      expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(3000);
    }
  });

  it('refuses malformed input with the validation envelope', async () => {
    expect(await forgot('not-an-address')).toMatchObject({
      status: 400,
      body: {
        error: 'Validation error',
        statusCode: 400,
        code: 'VALIDATION_ERROR',
        details: [{ path: 'email', message: 'must be a valid email address' }],
      },
    });
    const malformed = await reset('abc');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      error: 'Validation error',
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      details: [{ path: 'token', message: 'must be 64 hexadecimal characters' }],
    });
    expect(await reset('a'.repeat(64))).toEqual(
      expect.objectContaining({ status: 400, body: INVALID_TOKEN }),
    );

    const email = newEmail('weak');
    await register(context, email);
    await forgot(email);
    const token = tokenOfLink(await resetLink(email));
    const weak = await reset(token, 'short');
    expect(weak.body).toEqual({
      error: 'Validation error',
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      details: [{ path: 'password', message: 'must be 8 to 128 characters long' }],
    });
    // A weak password leaves the link usable.
    expect((await reset(token)).status).toBe(200);
    expect((await call(context.suite, 'POST', '/auth/reset-password', { body: { token: 5 } })).status).toBe(
      400,
    );
  });
});
