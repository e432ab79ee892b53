import { describe, expect, it } from 'vitest';
import { CookieJar } from './cookie-jar.js';

describe('CookieJar', () => {
  it('keeps each cookie by name, the latest value winning, and sends them back in order', () => {
    const jar = new CookieJar();
    jar.store(['session=abc; Path=/; HttpOnly', 'csrf=x1; SameSite=Lax', 'session=def; Path=/']);
    expect(jar.get('session')).toBe('def');
    expect(jar.header()).toBe('session=def; csrf=x1');
  });

  it('deletes a cookie set with Max-Age=0, a negative Max-Age or an Expires in the past (RFC 6265 5.3)', () => {
    const jar = new CookieJar();
    jar.store(['a=1', 'b=2', 'c=3', 'd=4']);
    jar.store([
      'a=; Max-Age=0',
      'b=; max-age=-1',
      'c=; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
      `d=5; Expires=${new Date(Date.now() + 60_000).toUTCString()}`,
    ]);
    expect(jar.header()).toBe('d=5');
  });

  it('is empty until something is stored', () => {
    expect(new CookieJar().header()).toBe('');
  });
});
