import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import { accountCall } from './accounts.js';
import type { Suite } from './suite.js';

/** Helpers of the strong-authentication tests (docs/interface.md 4.11). */

export const INVALID_CODE = { error: 'Invalid code', statusCode: 400, code: 'INVALID_CODE' };
export const INVALID_TOKEN = { error: 'Invalid or expired token', statusCode: 400, code: 'INVALID_TOKEN' };
export const INVALID_CREDENTIALS = {
  error: 'Invalid email or password',
  statusCode: 401,
  code: 'INVALID_CREDENTIALS',
};
export const ACR_MFA = 'urn:authz:acr:mfa';
export const ACR_PASSWORD = 'urn:authz:acr:password';

/**
 * The code an authenticator app shows for `secret`, `steps` time steps (of 30 s) from now:
 * RFC 6238 with SHA-1 and 6 digits, computed here with otpauth as an app would.
 */
export function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

export interface EnrolledTotp {
  secret: string;
  otpauthUri: string;
  recoveryCodes: string[];
}

/** POST /auth/mfa/totp then /auth/mfa/totp/confirm with the current code. */
export async function enrolTotp(suite: Suite, accessToken: string, password: string): Promise<EnrolledTotp> {
  const begun = await accountCall<{ secret: string; otpauthUri: string }>(suite, 'POST', '/auth/mfa/totp', {
    token: accessToken,
    body: { password },
  });
  expect(begun.status).toBe(200);
  const confirmed = await accountCall<{ recoveryCodes: string[] }>(suite, 'POST', '/auth/mfa/totp/confirm', {
    token: accessToken,
    body: { code: totpCode(begun.body.secret) },
  });
  expect(confirmed.status).toBe(200);
  return { ...begun.body, recoveryCodes: confirmed.body.recoveryCodes };
}

/** POST /auth/login for an account with a second factor: the mfa_token it answers. */
export async function passwordStep(suite: Suite, user: { email: string; password: string }): Promise<string> {
  const login = await accountCall<{ mfa_token: string }>(suite, 'POST', '/auth/login', {
    body: { email: user.email, password: user.password },
  });
  expect(login.status).toBe(200);
  return login.body.mfa_token;
}

export function secondStep(suite: Suite, mfaToken: string, code: string) {
  return accountCall(suite, 'POST', '/auth/login/mfa', { body: { mfaToken, code } });
}
