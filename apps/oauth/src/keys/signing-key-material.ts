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
import type { NewSigningKey, SigningKeyRecord } from './signing-key-store.js';

/**
 * A fresh Ed25519 key (docs/decisions.md #11). kid is its RFC 7638 JWK thumbprint (SHA-256,
 * base64url); the private JWK is encrypted with KEY_ENCRYPTION_KEY, bound to the kid.
 */
export async function generateSigningKey(keyEncryptionKey: Buffer): Promise<NewSigningKey> {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const { kty, crv, x } = await exportJWK(publicKey);
  const publicJwk: JWK = { kty, crv, x };
  const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
  const privateJwk = Buffer.from(JSON.stringify(await exportJWK(privateKey)), 'utf8');
  return { kid, publicJwk, privateKeyEncrypted: encryptWithKey(keyEncryptionKey, privateJwk, kid) };
}

/** A Node KeyObject, as compact-jws.ts signs with node:crypto (docs/performance.md #13). */
export function decryptPrivateKey(keyEncryptionKey: Buffer, record: SigningKeyRecord): KeyObject {
  const jwk = JSON.parse(
    decryptWithKey(keyEncryptionKey, record.privateKeyEncrypted, record.kid).toString('utf8'),
  ) as JsonWebKey;
  return createPrivateKey({ key: jwk, format: 'jwk' });
}

export async function importPublicKey(record: SigningKeyRecord): Promise<CryptoKey> {
  return (await importJWK(record.publicJwk, 'EdDSA')) as CryptoKey;
}
