import { constants, verify, type KeyObject } from 'node:crypto';
import { errors, type JWTHeaderParameters, type JWTPayload } from 'jose';

/** The JWS algorithms this server ever verifies (docs/par-and-dpop.md #7, docs/tokens.md #34). */
export type VerifiableAlg = 'EdDSA' | 'Ed25519' | 'ES256' | 'RS256' | 'PS256';

/** How each algorithm is checked with node:crypto (RFC 7518 section 3, RFC 8037 section 3.1). */
const VERIFIERS: Record<VerifiableAlg, { digest: string | null; keyType: string; options?: object }> = {
  // PureEdDSA takes no digest (RFC 8032 section 5.1); only Ed25519 keys (docs/decisions.md #11).
  EdDSA: { digest: null, keyType: 'ed25519' },
  Ed25519: { digest: null, keyType: 'ed25519' },
  // RFC 7518 section 3.4: R || S, each 32 bytes, not DER.
  ES256: { digest: 'sha256', keyType: 'ec', options: { dsaEncoding: 'ieee-p1363' } },
  RS256: { digest: 'sha256', keyType: 'rsa' },
  // RFC 7518 section 3.5: MGF1 with SHA-256 and a salt as long as the hash.
  PS256: {
    digest: 'sha256',
    keyType: 'rsa',
    options: { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 },
  },
};

const COMPACT_PART = /^[A-Za-z0-9_-]*$/;

/** Invalid UTF-8 is an error, as in jose, never replaced. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export interface VerifiedCompactJws {
  header: JWTHeaderParameters;
  payload: JWTPayload;
}

/**
 * RFC 7515 section 5.2 for a compact JWS whose payload is a JWT claims set (RFC 7519 section
 * 7.2), with node:crypto's synchronous verify. Why not jose's jwtVerify: jose 6 verifies only
 * through WebCrypto, whose promise machinery cost as much as the signature check itself on every
 * introspection, UserInfo call and DPoP proof (docs/performance.md #20). The errors are jose's
 * classes with jose's codes, so callers tell failures apart exactly as before, and
 * verify-compact-jws.test.ts holds the outcomes to jose's for the same inputs.
 *
 * `keyFor` is asked only after the header passed the algorithm check; it returns the key or
 * undefined (JWKSNoMatchingKey).
 */
export async function verifyCompactJws(
  token: string,
  algorithms: readonly VerifiableAlg[],
  keyFor: (header: JWTHeaderParameters) => KeyObject | undefined | Promise<KeyObject | undefined>,
): Promise<VerifiedCompactJws> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new errors.JWSInvalid('Invalid Compact JWS');
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  if (!parts.every((part) => COMPACT_PART.test(part))) throw new errors.JWSInvalid('Invalid Compact JWS');
  const header = decodeJson(encodedHeader, () => new errors.JWSInvalid('JWS Protected Header is invalid'));
  // RFC 7515 section 4.1.11: no extension is understood here, so any "crit" refuses the JWS.
  if (Object.hasOwn(header, 'crit')) {
    throw new errors.JOSENotSupported('no "crit" (Critical) Header Parameter is supported');
  }
  const alg = header.alg;
  if (typeof alg !== 'string' || !(algorithms as readonly string[]).includes(alg)) {
    throw new errors.JOSEAlgNotAllowed('"alg" (Algorithm) Header Parameter value not allowed');
  }
  const key = await keyFor(header as JWTHeaderParameters);
  if (!key) throw new errors.JWKSNoMatchingKey();
  const verifier = VERIFIERS[alg as VerifiableAlg];
  if (key.type !== 'public' || key.asymmetricKeyType !== verifier.keyType) {
    throw new errors.JOSENotSupported(`the key is not usable with ${alg}`);
  }
  const signingInput = Buffer.from(`${encodedHeader}.${encodedPayload}`, 'ascii');
  const signature = Buffer.from(encodedSignature, 'base64url');
  const verifyKey = verifier.options ? { key, ...verifier.options } : key;
  let valid: boolean;
  try {
    valid = verify(verifier.digest, signingInput, verifyKey, signature);
  } catch {
    valid = false;
  }
  if (!valid) throw new errors.JWSSignatureVerificationFailed();
  const payload = decodeJson(
    encodedPayload,
    () => new errors.JWTInvalid('JWT Claims Set must be a top-level JSON object'),
  );
  return { header: header as JWTHeaderParameters, payload };
}

function decodeJson(part: string, invalid: () => Error): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(UTF8.decode(Buffer.from(part, 'base64url')));
  } catch {
    throw invalid();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid();
  return value as Record<string, unknown>;
}
