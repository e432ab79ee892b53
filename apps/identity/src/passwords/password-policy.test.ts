import { describe, expect, it } from 'vitest';
import { loadCommonPasswords } from './common-passwords.js';
import { passwordProblem } from './password-policy.js';

describe('password policy (docs/decisions.md #4)', async () => {
  const common = await loadCommonPasswords();

  it('ships about 10,000 common passwords', () => {
    expect(common.size).toBeGreaterThan(9900);
    expect(common.has('password')).toBe(true);
  });

  it('counts length after NFKC, in code points', () => {
    expect(passwordProblem('Xq7#pL2', 'a@b.c', common)).toBe('must be 8 to 128 characters long');
    // U+FB01 (ﬁ ligature) becomes "fi" under NFKC: 7 characters typed, 8 after normalisation.
    expect(passwordProblem('\uFB01q7#pL2z', 'a@b.c', common)).toBeUndefined();
    expect(passwordProblem('😀'.repeat(128), 'a@b.c', common)).toBeUndefined();
    expect(passwordProblem('😀'.repeat(129), 'a@b.c', common)).toBe('must be 8 to 128 characters long');
  });

  it('refuses common passwords case-insensitively and the email local part', () => {
    expect(passwordProblem('PassWord1', 'a@b.c', common)).toBe('is too common');
    expect(passwordProblem('Alice.Smith', 'alice.smith@example.com', common)).toBe(
      'must not be the local part of the email address',
    );
    expect(passwordProblem('correct horse battery', 'alice@example.com', common)).toBeUndefined();
  });
});
