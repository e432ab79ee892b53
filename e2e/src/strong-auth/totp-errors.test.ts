import { describe, expect, it } from 'vitest';
import { accountCall, signIn } from '../support/accounts.js';
import { UNAUTHORIZED } from '../support/clients.js';
import { newUser, useCodeFlow } from '../support/code-flow.js';
import {
  enrolTotp,
  INVALID_CODE,
  INVALID_CREDENTIALS,
  INVALID_TOKEN,
  passwordStep,
  secondStep,
  totpCode,
} from '../support/strong-auth-helpers.js';

// docs/interface.md 4.11: every error row of the second-factor routes, with its exact body
// (the envelope of interface.md 7), and the per-account second-step budget
// (docs/strong-authentication.md #7).
const flow = useCodeFlow();

const validation = (path: string, message: string) => ({
  error: 'Validation error',
  statusCode: 400,
  code: 'VALIDATION_ERROR',
  details: [{ path, message }],
});

const answer = (response: { status: number; body: unknown }) => ({
  status: response.status,
  body: response.body,
});

describe('second-factor routes: error rows', () => {
  it('401 without a first-party user token on every JSON route', async () => {
    const calls = [
      accountCall(flow.suite, 'GET', '/auth/mfa'),
      accountCall(flow.suite, 'POST', '/auth/mfa/totp', { body: { password: 'x' } }),
      accountCall(flow.suite, 'POST', '/auth/mfa/totp/confirm', { body: { code: '123456' } }),
      accountCall(flow.suite, 'DELETE', '/auth/mfa/totp', { body: { password: 'x' } }),
      accountCall(flow.suite, 'GET', '/auth/mfa', { token: 'not-a-token' }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(answer(response)).toEqual({ status: 401, body: UNAUTHORIZED });
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
  });

  it('POST /auth/mfa/totp: 400, 401 wrong password, 409 already enrolled', async () => {
    const user = await newUser(flow, { verified: true });
    const { accessToken } = await signIn(flow.suite, user);
    const call = (body?: unknown) =>
      accountCall(flow.suite, 'POST', '/auth/mfa/totp', {
        token: accessToken,
        ...(body === undefined ? {} : { body }),
      });

    expect(answer(await call({}))).toEqual({ status: 400, body: validation('password', 'is required') });
    expect(answer(await call({ password: 42 }))).toEqual({
      status: 400,
      body: validation('password', 'must be string'),
    });
    expect(answer(await call())).toEqual({ status: 400, body: validation('(body)', 'must be object') });
    expect(answer(await call({ password: 'wrong-Password-9' }))).toEqual({
      status: 401,
      body: INVALID_CREDENTIALS,
    });

    await enrolTotp(flow.suite, accessToken, user.password);
    expect(answer(await call({ password: user.password }))).toEqual({
      status: 409,
      body: { error: 'An authenticator app is already enrolled', statusCode: 409, code: 'CONFLICT' },
    });
  });

  it('POST /auth/mfa/totp/confirm: 400 validation, 400 INVALID_CODE (wrong code, nothing pending)', async () => {
    const user = await newUser(flow, { verified: true });
    const { accessToken } = await signIn(flow.suite, user);
    const confirm = (body: unknown) =>
      accountCall(flow.suite, 'POST', '/auth/mfa/totp/confirm', { token: accessToken, body });

    expect(answer(await confirm({ code: '123456' }))).toEqual({ status: 400, body: INVALID_CODE });
    const begun = await accountCall<{ secret: string }>(flow.suite, 'POST', '/auth/mfa/totp', {
      token: accessToken,
      body: { password: user.password },
    });
    expect(answer(await confirm({}))).toEqual({ status: 400, body: validation('code', 'is required') });
    expect(answer(await confirm({ code: totpCode(begun.body.secret, 10) }))).toEqual({
      status: 400,
      body: INVALID_CODE,
    });
    expect(answer(await confirm({ code: 'abcdef' }))).toEqual({ status: 400, body: INVALID_CODE });
    // Still pending: the right code confirms it.
    const confirmed = await confirm({ code: totpCode(begun.body.secret) });
    expect(confirmed.status).toBe(200);
  });

  it('DELETE /auth/mfa/totp: 400 validation, 401 wrong password, 204 with nothing enrolled', async () => {
    const user = await newUser(flow, { verified: true });
    const { accessToken } = await signIn(flow.suite, user);
    const remove = (body: unknown) =>
      accountCall(flow.suite, 'DELETE', '/auth/mfa/totp', { token: accessToken, body });
    expect(answer(await remove({}))).toEqual({ status: 400, body: validation('password', 'is required') });
    expect(answer(await remove({ password: 'wrong-Password-9' }))).toEqual({
      status: 401,
      body: INVALID_CREDENTIALS,
    });
    expect(answer(await remove({ password: user.password }))).toEqual({ status: 204, body: null });
  });

  it('POST /auth/login/mfa: 400 validation, INVALID_TOKEN, INVALID_CODE, then 429 per account', async () => {
    const user = await newUser(flow, { verified: true });
    const { accessToken } = await signIn(flow.suite, user);
    const { secret } = await enrolTotp(flow.suite, accessToken, user.password);
    const mfaToken = await passwordStep(flow.suite, user);

    expect(answer(await secondStep(flow.suite, mfaToken, ''))).toEqual({
      status: 400,
      body: validation('code', 'is required'),
    });
    const mistyped = await accountCall(flow.suite, 'POST', '/auth/login/mfa', {
      body: { mfaToken, code: 123456 },
    });
    expect(answer(mistyped)).toEqual({ status: 400, body: validation('code', 'must be string') });
    expect(answer(await secondStep(flow.suite, 'f'.repeat(64), totpCode(secret, 1)))).toEqual({
      status: 400,
      body: INVALID_TOKEN,
    });
    expect(answer(await secondStep(flow.suite, 'not-a-token', totpCode(secret, 1)))).toEqual({
      status: 400,
      body: INVALID_TOKEN,
    });

    // Five wrong codes spend the account's budget, whichever mfa_token they came with.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const token = attempt % 2 === 0 ? mfaToken : await passwordStep(flow.suite, user);
      expect(answer(await secondStep(flow.suite, token, totpCode(secret, 10 + attempt)))).toEqual({
        status: 400,
        body: INVALID_CODE,
      });
    }
    const limited = await secondStep(flow.suite, mfaToken, totpCode(secret, 1));
    expect(answer(limited)).toEqual({
      status: 429,
      body: { error: 'Too many requests', statusCode: 429, code: 'RATE_LIMITED' },
    });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
  });
});
