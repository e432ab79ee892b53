import { flattenedVerify, importJWK, type JWK } from 'jose';
import { ACCEPTED_ALGORITHMS } from '../requests/request-object.js';

/**
 * Checks the signature of `header.payload` against one public JWK, with the algorithm the
 * header names when it is one we accept and the key fits it (RFC 7515 section 5.2). The
 * @sd-jwt verifier callbacks hand us the signing input and the signature only.
 */
export async function verifyJwsSignature(
  signingInput: string,
  signature: string,
  jwk: JWK,
): Promise<boolean> {
  const [protectedHeader, payload] = signingInput.split('.');
  if (protectedHeader === undefined || payload === undefined) return false;
  const alg = (JSON.parse(Buffer.from(protectedHeader, 'base64url').toString('utf8')) as { alg?: unknown })
    .alg;
  if (typeof alg !== 'string' || !ACCEPTED_ALGORITHMS.includes(alg)) return false;
  if (jwk.alg !== undefined && jwk.alg !== alg) return false;
  try {
    const key = await importJWK({ ...jwk, ext: true }, alg);
    await flattenedVerify({ protected: protectedHeader, payload, signature }, key, { algorithms: [alg] });
    return true;
  } catch {
    return false;
  }
}
