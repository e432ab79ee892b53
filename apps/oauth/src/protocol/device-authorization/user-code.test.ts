import { describe, expect, it } from 'vitest';
import { newUserCode, normalizeUserCode, USER_CODE_ALPHABET } from './user-code.js';

describe('user codes (RFC 8628 section 6.1, docs/device-grant.md #2)', () => {
  it('are 8 characters of the consonant alphabet, shown as XXXX-XXXX', () => {
    const codes = Array.from({ length: 200 }, newUserCode);
    for (const code of codes) expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(new Set(codes.join('').replace(/-/g, ''))).toEqual(new Set(USER_CODE_ALPHABET));
  });

  it.each([
    ['BCDF-GHJK', 'BCDFGHJK'],
    ['bcdf-ghjk', 'BCDFGHJK'],
    ['bcdfghjk', 'BCDFGHJK'],
    [' BCDF GHJK ', 'BCDFGHJK'],
    ['B-C-D-F-G-H-J-K', 'BCDFGHJK'],
  ])('reads %j as %s', (typed, normalized) => {
    expect(normalizeUserCode(typed)).toBe(normalized);
  });

  it.each(['', 'BCDF-GHJ', 'BCDF-GHJKL', 'ABCD-EFGH', 'BCDF-GHJ1', 'BCDF_GHJK', `${'-'.repeat(40)}BCDFGHJK`])(
    'refuses %j',
    (typed) => {
      expect(normalizeUserCode(typed)).toBeUndefined();
    },
  );
});
