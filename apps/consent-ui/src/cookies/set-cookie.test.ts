import { describe, expect, it } from 'vitest';
import { clearedLoginCookie, LOGIN_COOKIE, loginCookie } from './set-cookie.js';

const TOKEN = 'ab'.repeat(32);

describe('Set-Cookie builders', () => {
  it('the pre-session cookie lives 10 minutes', () => {
    expect(LOGIN_COOKIE).toBe('__Host-service_login');
    expect(loginCookie(TOKEN)).toBe(
      `__Host-service_login=${TOKEN}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=600`,
    );
  });

  it('clearing the pre-session cookie expires it at once, with the same attributes', () => {
    expect(clearedLoginCookie()).toBe(
      '__Host-service_login=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0',
    );
  });

  it('refuses a value that would break out of the cookie', () => {
    expect(() => loginCookie('x; Domain=evil.example')).toThrow(/cookie-octet/);
    expect(() => loginCookie('a\r\nSet-Cookie: b=c')).toThrow(/cookie-octet/);
    expect(() => loginCookie('"quoted"')).toThrow(/cookie-octet/);
  });
});
