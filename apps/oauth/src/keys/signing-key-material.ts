import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { decryptWithKey, encryptWithKey } from '@authz/shared/crypto';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
} from 'jose';
import type { NewSigningKey, SigningAlg, SigningKeyRecord } from './signing-key-store.js';

// RFC 7518 section 3.3 requires at least 2048 bits for RS256 (docs/tokens.md #34).
const RSA_MODULUS_BITS = 2048;

/**
 * A fresh key of `alg` (docs/decisions.md #11): Ed25519 for EdDSA, RSA 2048 for RS256. kid is
 * its RFC 7638 JWK thumbprint (SHA-256, base64url); the private JWK is encrypted with
 * KEY_ENCRYPTION_KEY, bound to the kid.
 */
export async function generateSigningKey(
  keyEncryptionKey: Buffer,
  alg: SigningAlg = 'EdDSA',
): Promise<NewSigningKey> {
  const { publicKey, privateKey } =
    alg === 'RS256'
      ? await generateKeyPair('RS256', { modulusLength: RSA_MODULUS_BITS, extractable: true })
      : await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const exported = await exportJWK(publicKey);
  const publicJwk: JWK =
    alg === 'RS256'
      ? { kty: exported.kty, n: exported.n, e: exported.e }
      : { kty: exported.kty, crv: exported.crv, x: exported.x };
  const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
  const privateJwk = Buffer.from(JSON.stringify(await exportJWK(privateKey)), 'utf8');
  return { kid, alg, publicJwk, privateKeyEncrypted: encryptWithKey(keyEncryptionKey, privateJwk, kid) };
}

/** A Node KeyObject, as compact-jws.ts signs with node:crypto (docs/performance.md #13). */
export function decryptPrivateKey(keyEncryptionKey: Buffer, record: SigningKeyRecord): KeyObject {
  const jwk = JSON.parse(
    decryptWithKey(keyEncryptionKey, record.privateKeyEncrypted, record.kid).toString('utf8'),
  ) as JsonWebKey;
  return createPrivateKey({ key: jwk, format: 'jwk' });
}

export async function importPublicKey(record: SigningKeyRecord): Promise<CryptoKey> {
  return (await importJWK(record.publicJwk, record.alg)) as CryptoKey;
}
