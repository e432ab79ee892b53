import { randomUUID, createHash } from 'node:crypto';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';

/** A DPoP key pair as a client holds it (RFC 9449 section 4.2). */
export interface DpopKey {
  alg: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
  /** RFC 7638 SHA-256 thumbprint: the jkt tokens are bound to. */
  jkt: string;
}

export async function newDpopKey(alg = 'ES256'): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  return { alg, privateKey, publicKey, publicJwk, jkt: await calculateJwkThumbprint(publicJwk, 'sha256') };
}

export interface ProofOptions {
  method: string;
  url: string;
  nonce?: string;
  /** The access token whose ath the proof carries (RFC 9449 section 4.2). */
  accessToken?: string;
  /** Epoch seconds; now by default. */
  iat?: number;
  jti?: string;
  /** Header and claim overrides, to build the proofs a server must refuse. */
  header?: Record<string, unknown>;
  claims?: JWTPayload;
}

/** A DPoP proof JWT signed by hand, so each rule of RFC 9449 section 4.3 can be broken alone. */
export function dpopProof(key: DpopKey, options: ProofOptions): Promise<string> {
  const claims: JWTPayload = {
    jti: options.jti ?? randomUUID(),
    htm: options.method,
    htu: options.url,
    iat: options.iat ?? Math.floor(Date.now() / 1000),
    ...(options.nonce === undefined ? {} : { nonce: options.nonce }),
    ...(options.accessToken === undefined ? {} : { ath: accessTokenHash(options.accessToken) }),
    ...options.claims,
  };
  return new SignJWT(claims)
    .setProtectedHeader({ typ: 'dpop+jwt', alg: key.alg, jwk: key.publicJwk, ...options.header })
    .sign(key.privateKey);
}

export function accessTokenHash(accessToken: string): string {
  return createHash('sha256').update(accessToken).digest('base64url');
}
