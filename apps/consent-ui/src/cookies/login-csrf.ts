import { constantTimeEqual, keyedHash, randomHexToken } from '@authz/shared/crypto';

/**
 * The sign-in form's CSRF defence (docs/decisions.md #17, docs/hosted-pages.md #3, #4). No session
 * exists before sign-in, so the form is bound to a random pre-session cookie and to the
 * pending authorization: csrf_token = HMAC(login key, "login:" + pre-session + ":" + handle).
 * A cross-site page can neither read the cookie nor compute the token, and a token lifted from
 * one form does not fit another browser or another pending authorization (login CSRF, RFC 6749
 * section 10.12).
 */

/** What newPreSession() issues: 32 random bytes as lowercase hex. */
const PRE_SESSION_PATTERN = /^[0-9a-f]{64}$/;

/** A key for this one purpose, derived from SECRET_HASH_KEY, which is never used raw here. */
export function deriveLoginCsrfKey(secretHashKey: Buffer): Buffer {
  return Buffer.from(keyedHash(secretHashKey, 'consent-ui/login-csrf/v1'), 'hex');
}

export function newPreSession(): string {
  return randomHexToken(32);
}

export function isPreSessionShaped(value: string | undefined): value is string {
  return value !== undefined && PRE_SESSION_PATTERN.test(value);
}

/** The forms a pre-session protects; the label keeps one form's token from fitting another. */
export type PreSessionForm =
  | 'login'
  | 'wallet-login'
  | 'wallet-confirm'
  | 'forgot-password'
  | 'reset-password'
  | 'verify-email'
  | 'register'
  | 'device-code';

export function preSessionCsrfToken(
  key: Buffer,
  form: PreSessionForm,
  preSession: string,
  handle: string | undefined,
): string {
  return keyedHash(key, `${form}:${preSession}:${handle ?? ''}`);
}

/** Does `sent` belong to this form, this browser's pre-session and this pending authorization? */
export function isPreSessionCsrfTokenValid(
  key: Buffer,
  form: PreSessionForm,
  preSession: string | undefined,
  handle: string | undefined,
  sent: string | undefined,
): boolean {
  if (!isPreSessionShaped(preSession) || sent === undefined) return false;
  return constantTimeEqual(preSessionCsrfToken(key, form, preSession, handle), sent);
}

export function loginCsrfToken(key: Buffer, preSession: string, handle: string | undefined): string {
  return preSessionCsrfToken(key, 'login', preSession, handle);
}

export function isLoginCsrfTokenValid(
  key: Buffer,
  preSession: string | undefined,
  handle: string | undefined,
  sent: string | undefined,
): boolean {
  return isPreSessionCsrfTokenValid(key, 'login', preSession, handle, sent);
}
