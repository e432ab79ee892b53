import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  constantTimeEqual,
  decryptWithKey,
  encryptWithKey,
  keyedHash,
  matchesKeyedHash,
  randomHexToken,
} from './index.js';

const key = randomBytes(32);

describe('secrets at rest', () => {
  it('makes 64-hex tokens and matches them only against their own keyed hash', () => {
    const token = randomHexToken();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const stored = keyedHash(key, token);
    expect(stored).not.toContain(token);
    expect(matchesKeyedHash(key, token, stored)).toBe(true);
    expect(matchesKeyedHash(key, randomHexToken(), stored)).toBe(false);
    expect(matchesKeyedHash(randomBytes(32), token, stored)).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });

  it('encrypts with AES-256-GCM and refuses a wrong key or associated data', () => {
    const envelope = encryptWithKey(key, Buffer.from('private key'), 'kid-1');
    expect(envelope).toMatch(/^v1\./);
    expect(decryptWithKey(key, envelope, 'kid-1').toString()).toBe('private key');
    expect(() => decryptWithKey(key, envelope, 'kid-2')).toThrow();
    expect(() => decryptWithKey(randomBytes(32), envelope, 'kid-1')).toThrow();
  });
});
