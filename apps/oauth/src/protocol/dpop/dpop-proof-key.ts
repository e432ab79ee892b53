import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';

export interface DpopProofKey {
  key: KeyObject;
  /** RFC 7638 SHA-256 thumbprint, base64url: the jkt tokens are bound to (RFC 9449 section 6.1). */
  jkt: string;
}

/** RFC 7638 section 3.2: the required members of each key type, in lexicographic order. */
const THUMBPRINT_MEMBERS: Record<string, readonly string[]> = {
  OKP: ['crv', 'kty', 'x'],
  EC: ['crv', 'kty', 'x', 'y'],
  RSA: ['e', 'kty', 'n'],
};

/** Which key each proof algorithm needs (RFC 7518 section 3, RFC 8037 section 3.1). */
const KEY_OF_ALG: Record<string, { kty: string; crv?: string }> = {
  EdDSA: { kty: 'OKP', crv: 'Ed25519' },
  Ed25519: { kty: 'OKP', crv: 'Ed25519' },
  ES256: { kty: 'EC', crv: 'P-256' },
  RS256: { kty: 'RSA' },
  PS256: { kty: 'RSA' },
};

/** RFC 7518 section 3.3: RSA keys of 2048 bits or more. */
const MIN_RSA_BITS = 2048;
/** Clients keep one key for many proofs; a bounded memory of imported keys spares re-importing it. */
const MAX_REMEMBERED_KEYS = 1_000;
const remembered = new Map<string, DpopProofKey>();

/**
 * The public key of a proof's `jwk` header, usable with its `alg`, and its thumbprint; undefined
 * when the jwk is not such a key (the proof is then invalid, RFC 9449 section 4.3 item 5). The
 * thumbprint is computed here with node:crypto rather than jose's, which hashes through
 * WebCrypto (docs/performance.md #20); the imported key is remembered by that same canonical
 * form, so a remembered key is exactly the key of the jwk presented.
 */
export function dpopProofKey(jwk: JWK, alg: string): DpopProofKey | undefined {
  const wanted = KEY_OF_ALG[alg];
  const members = THUMBPRINT_MEMBERS[jwk.kty ?? ''];
  if (!wanted || !members || wanted.kty !== jwk.kty || (wanted.crv && wanted.crv !== jwk.crv))
    return undefined;
  const canonical: Record<string, string> = {};
  for (const member of members) {
    const value = (jwk as Record<string, unknown>)[member];
    if (typeof value !== 'string' || value.length === 0) return undefined;
    canonical[member] = value;
  }
  const thumbprintInput = JSON.stringify(canonical);
  const known = remembered.get(thumbprintInput);
  if (known) return known;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: canonical, format: 'jwk' });
  } catch {
    return undefined;
  }
  if (jwk.kty === 'RSA' && (key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) return undefined;
  const proofKey = { key, jkt: createHash('sha256').update(thumbprintInput).digest('base64url') };
  if (remembered.size >= MAX_REMEMBERED_KEYS) remembered.delete(remembered.keys().next().value!);
  remembered.set(thumbprintInput, proofKey);
  return proofKey;
}
