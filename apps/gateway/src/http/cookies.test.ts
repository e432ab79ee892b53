import { InternalError } from '@authz/shared/errors';
import { describe, expect, it } from 'vitest';
import { sessionCookie } from './cookies.js';

const TOKEN = 'ab'.repeat(32);

describe('sessionCookie', () => {
  it('is host-only, Path=/, Secure, HttpOnly, Lax, without Max-Age (docs/hosted-pages.md #2)', () => {
    expect(sessionCookie(TOKEN)).toBe(
      `__Host-service_session=${TOKEN}; Path=/; Secure; HttpOnly; SameSite=Lax`,
    );
  });

  it('carries a lifetime when given one, never a negative one', () => {
    expect(sessionCookie(TOKEN, 600n)).toMatch(/; Max-Age=600$/);
    expect(sessionCookie(TOKEN, -5n)).toMatch(/; Max-Age=0$/);
  });

  it('refuses a value that would break out of the cookie', () => {
    for (const value of ['', 'x; Domain=evil.example', 'a\r\nSet-Cookie: b=c', '"quoted"']) {
      expect(() => sessionCookie(value)).toThrow(InternalError);
    }
  });
});
