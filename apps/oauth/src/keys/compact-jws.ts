import { sign, type KeyObject } from 'node:crypto';
import { SigningThread } from './signing-thread.js';

/** One signing thread per process, started on the first signature (signing-thread.ts). */
const signingThread = new SigningThread();

/** The JOSE header of every JWT this server signs (docs/decisions.md #11: EdDSA only). */
export interface EdDsaJwsHeader {
  alg: 'EdDSA';
  typ: string;
  kid: string;
}

/**
 * RFC 7515 section 7.1 compact serialization of an Ed25519 signature (RFC 8037 section 3.1):
 * BASE64URL(UTF8(header)) "." BASE64URL(payload) "." BASE64URL(signature over the first two).
 *
 * Why not jose's SignJWT: jose 6 signs only through WebCrypto, whose promise machinery costs
 * oauth's event loop more per token than the signature itself (docs/performance.md #13). The
 * signature is node:crypto's Ed25519 (OpenSSL), made on the signing thread, which takes the
 * signatures of a whole burst of tokens in one hand-off (docs/performance.md #16). Ed25519
 * signatures are deterministic (RFC 8032 section 5.1.6), so compact-jws.test.ts holds this
 * output byte for byte to jose's CompactSign for the same header, payload and key; everything
 * that reads or verifies a JWS still goes through jose.
 */
export async function signCompactJws(
  header: EdDsaJwsHeader,
  payload: object,
  privateKey: KeyObject,
): Promise<string> {
  if (privateKey.asymmetricKeyType !== 'ed25519' || privateKey.type !== 'private') {
    throw new TypeError('EdDSA signing needs an Ed25519 private key');
  }
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  return `${signingInput}.${await signingThread.sign(signingInput, privateKey)}`;
}

function base64url(json: string): string {
  return Buffer.from(json, 'utf8').toString('base64url');
}

/** The JOSE header of an RS256 ID token (docs/tokens.md #34). */
export interface Rs256JwsHeader {
  alg: 'RS256';
  typ: string;
  kid: string;
}

/**
 * RFC 7515 section 7.1 compact serialization of an RS256 signature (RFC 7518 section 3.3,
 * RSASSA-PKCS1-v1_5 with SHA-256). Only ID tokens of clients registered for RS256 are signed
 * this way, rarely enough that signing on the event loop is fine (docs/tokens.md #34).
 */
export function signRs256CompactJws(header: Rs256JwsHeader, payload: object, privateKey: KeyObject): string {
  if (privateKey.asymmetricKeyType !== 'rsa' || privateKey.type !== 'private') {
    throw new TypeError('RS256 signing needs an RSA private key');
  }
  const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  const signature = sign('sha256', Buffer.from(signingInput, 'ascii'), privateKey).toString('base64url');
  return `${signingInput}.${signature}`;
}
