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

describe('AES-GCM tag length (docs/security.md #12, finding 11)', () => {
  /** The envelope with its tag cut to `bytes`: a prefix of the real tag. */
  function withTagCutTo(envelope: string, bytes: number): string {
    const [version, iv, tag, ciphertext] = envelope.split('.') as [string, string, string, string];
    const cut = Buffer.from(tag, 'base64url').subarray(0, bytes).toString('base64url');
    return [version, iv, cut, ciphertext].join('.');
  }

  it('refuses a tag truncated to a valid prefix of the real one', () => {
    const envelope = encryptWithKey(key, Buffer.from('private key'), 'kid-1');
    for (const bytes of [4, 8, 12, 15]) {
      expect(() => decryptWithKey(key, withTagCutTo(envelope, bytes), 'kid-1')).toThrow();
    }
    expect(decryptWithKey(key, withTagCutTo(envelope, 16), 'kid-1').toString()).toBe('private key');
  });

  it('refuses a tag longer than 16 bytes', () => {
    const envelope = encryptWithKey(key, Buffer.from('private key'), 'kid-1');
    const [version, iv, tag, ciphertext] = envelope.split('.') as [string, string, string, string];
    const longer = Buffer.concat([Buffer.from(tag, 'base64url'), Buffer.alloc(1)]).toString('base64url');
    expect(() => decryptWithKey(key, [version, iv, longer, ciphertext].join('.'), 'kid-1')).toThrow();
  });
});
