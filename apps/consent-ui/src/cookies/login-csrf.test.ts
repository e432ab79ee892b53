import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  deriveLoginCsrfKey,
  isLoginCsrfTokenValid,
  isPreSessionShaped,
  loginCsrfToken,
  newPreSession,
} from './login-csrf.js';

const secretHashKey = randomBytes(32);
const key = deriveLoginCsrfKey(secretHashKey);
const preSession = newPreSession();
const handle = 'pending-handle-1';

describe('login CSRF (docs/decisions.md #17)', () => {
  it('derives a purpose key from SECRET_HASH_KEY and never uses the key raw', () => {
    expect(key).toHaveLength(32);
    expect(key.equals(secretHashKey)).toBe(false);
    expect(key).toEqual(createHmac('sha256', secretHashKey).update('consent-ui/login-csrf/v1').digest());
    expect(deriveLoginCsrfKey(randomBytes(32)).equals(key)).toBe(false);
  });

  it('is HMAC(login key, "login:" + pre-session + ":" + handle)', () => {
    const expected = createHmac('sha256', key).update(`login:${preSession}:${handle}`).digest('hex');
    expect(loginCsrfToken(key, preSession, handle)).toBe(expected);
    const plain = createHmac('sha256', key).update(`login:${preSession}:`).digest('hex');
    expect(loginCsrfToken(key, preSession, undefined)).toBe(plain);
  });

  it('accepts the token of the same cookie and handle', () => {
    const token = loginCsrfToken(key, preSession, handle);
    expect(isLoginCsrfTokenValid(key, preSession, handle, token)).toBe(true);
    expect(
      isLoginCsrfTokenValid(key, preSession, undefined, loginCsrfToken(key, preSession, undefined)),
    ).toBe(true);
  });

  it('is bound to the pre-session cookie', () => {
    const token = loginCsrfToken(key, preSession, handle);
    expect(isLoginCsrfTokenValid(key, newPreSession(), handle, token)).toBe(false);
    expect(isLoginCsrfTokenValid(key, undefined, handle, token)).toBe(false);
  });

  it('is bound to the pending authorization', () => {
    const token = loginCsrfToken(key, preSession, handle);
    expect(isLoginCsrfTokenValid(key, preSession, 'another-handle', token)).toBe(false);
    expect(isLoginCsrfTokenValid(key, preSession, undefined, token)).toBe(false);
    expect(isLoginCsrfTokenValid(key, preSession, handle, loginCsrfToken(key, preSession, undefined))).toBe(
      false,
    );
  });

  it('is bound to the key', () => {
    const otherKey = deriveLoginCsrfKey(randomBytes(32));
    expect(isLoginCsrfTokenValid(key, preSession, handle, loginCsrfToken(otherKey, preSession, handle))).toBe(
      false,
    );
  });

  it('refuses a missing, empty or altered token and an ill-formed cookie', () => {
    const token = loginCsrfToken(key, preSession, handle);
    expect(isLoginCsrfTokenValid(key, preSession, handle, undefined)).toBe(false);
    expect(isLoginCsrfTokenValid(key, preSession, handle, '')).toBe(false);
    expect(isLoginCsrfTokenValid(key, preSession, handle, token.toUpperCase())).toBe(false);
    expect(isLoginCsrfTokenValid(key, preSession, handle, `${token}0`)).toBe(false);
    const short = preSession.slice(1);
    expect(isLoginCsrfTokenValid(key, short, handle, loginCsrfToken(key, short, handle))).toBe(false);
  });

  it('issues pre-sessions of 32 random bytes as lowercase hex', () => {
    const issued = newPreSession();
    expect(issued).toMatch(/^[0-9a-f]{64}$/);
    expect(issued).not.toBe(newPreSession());
    expect(isPreSessionShaped(issued)).toBe(true);
    expect(isPreSessionShaped(issued.toUpperCase())).toBe(false);
    expect(isPreSessionShaped(`${issued}0`)).toBe(false);
    expect(isPreSessionShaped(undefined)).toBe(false);
  });
});
