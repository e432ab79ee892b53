import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secrets at rest (docs/architecture.md "Data and secrets"): high-entropy secrets (client secrets,
 * API keys, refresh and verification tokens) are stored as a keyed hash, HMAC-SHA256 under
 * SECRET_HASH_KEY; private keys are encrypted with KEY_ENCRYPTION_KEY (AES-256-GCM).
 */

/** A random secret of `bytes` bytes as lowercase hex (32 bytes -> 64 hex characters). */
export function randomHexToken(bytes = 32): string {
  return randomBytes(bytes).toString('hex');
}

/** HMAC-SHA256 of `value` under `key`, lowercase hex: what is stored instead of the secret. */
export function keyedHash(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('hex');
}

/** Compares two strings in time independent of where they differ. */
export function constantTimeEqual(left: string, right: string): boolean {
  const a = Buffer.from(left, 'utf8');
  const b = Buffer.from(right, 'utf8');
  // Compare equal-length buffers always, so the length check leaks nothing but the length.
  return a.length === b.length ? timingSafeEqual(a, b) : timingSafeEqual(a, a) && false;
}

/** Does `candidate` hash to `storedHash`? Constant-time on the hashes. */
export function matchesKeyedHash(key: Buffer, candidate: string, storedHash: string): boolean {
  return constantTimeEqual(keyedHash(key, candidate), storedHash);
}

const ENVELOPE_VERSION = 'v1';

/**
 * The full 128-bit GCM tag (NIST SP 800-38D 5.2.1.2). Pinned when decrypting: without it,
 * node:crypto accepts any tag of 4 to 16 bytes, so a truncated tag would need only 2^32
 * guesses to forge (docs/security.md #12, finding 11).
 */
const AUTH_TAG_BYTES = 16;

/** AES-256-GCM with a random 96-bit nonce: `v1.<iv>.<tag>.<ciphertext>` (base64url parts). */
export function encryptWithKey(key: Buffer, plaintext: Buffer, associatedData = ''): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: AUTH_TAG_BYTES });
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return [ENVELOPE_VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Reverses encryptWithKey; throws when the key, the data or the associated data differ. */
export function decryptWithKey(key: Buffer, envelope: string, associatedData = ''): Buffer {
  const [version, iv, tag, ciphertext] = envelope.split('.');
  if (version !== ENVELOPE_VERSION || !iv || !tag || ciphertext === undefined) {
    throw new Error('unrecognised encrypted envelope');
  }
  const authTag = Buffer.from(tag, 'base64url');
  if (authTag.length !== AUTH_TAG_BYTES) throw new Error('unrecognised encrypted envelope');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
    authTagLength: AUTH_TAG_BYTES,
  });
  decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  decipher.setAuthTag(authTag);
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
}
