import { createHash } from 'node:crypto';
import type { OAuthError } from '@authz/shared/errors';
import { decodeProtectedHeader, errors, type JWK } from 'jose';
import { checkJwtClaims } from '../../keys/jwt-claims.js';
import { verifyCompactJws, type VerifiableAlg } from '../../keys/verify-compact-jws.js';
import type { Registry } from '../../registry.js';
import { dpopProofKey } from './dpop-proof-key.js';
import { DPOP_IAT_WINDOW_SECONDS, DPOP_SIGNING_ALGORITHMS } from './dpop-algorithms.js';
import type { DpopBinding, PresentedDpopProof } from './dpop-binding.js';
import { currentDpopNonce, isFreshDpopNonce } from './dpop-nonce.js';

type Deps = Pick<Registry, 'config' | 'dpopJtis'>;

/** The errors of the place checking: 400 at the authorization server, 401 at a resource (RFC 9449 section 7.1). */
export interface DpopErrors {
  invalidProof(message: string, init?: { detail?: string }): OAuthError;
  useNonce(message: string, nonce: string): OAuthError;
}

export interface DpopProofChecks {
  /** RFC 9449 section 8: the authorization server demands its nonce (docs/par-and-dpop.md #9). */
  requireNonce: boolean;
  /** RFC 9449 section 7: at a resource, the ath the proof must carry. */
  accessToken?: string;
}

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const MAX_JTI_LENGTH = 256;

/**
 * RFC 9449 section 4.3, in its order: one well-formed JWT, typ dpop+jwt, an asymmetric alg we
 * support, a public jwk that verifies the signature, jti, htm and htu of this request, iat within
 * +-60 s, ath of the presented token, the server's nonce, and a jti not seen before
 * (docs/par-and-dpop.md #6 to #9). The replay claim comes last, so a proof refused for another
 * reason never spends its jti.
 */
export async function verifyDpopProof(
  deps: Deps,
  presented: PresentedDpopProof,
  checks: DpopProofChecks,
  refuse: DpopErrors,
  now = Date.now(),
): Promise<DpopBinding> {
  const { proof } = presented;
  if (!COMPACT_JWS.test(proof)) throw refuse.invalidProof('The DPoP proof must be one compact JWT');
  const { payload, jkt } = await verifySignature(proof, refuse);
  const jti = checkClaims(deps, presented, payload, checks, refuse, now);
  checkNonce(deps, payload.nonce, checks.requireNonce, refuse, now);
  // Acceptable while iat is within the window either side: at most twice the window.
  if (!(await deps.dpopJtis.claim(jkt, jti, 2 * DPOP_IAT_WINDOW_SECONDS))) {
    throw refuse.invalidProof('The DPoP proof was already used', { detail: 'DPoP proof jti replayed' });
  }
  return { jkt };
}

/** RFC 9449 section 7.1: the ath of an access token, base64url of its SHA-256. */
export function accessTokenHash(accessToken: string): string {
  return createHash('sha256').update(accessToken).digest('base64url');
}

interface VerifiedProof {
  payload: Record<string, unknown>;
  /** The thumbprint of the proof's key (RFC 7638). */
  jkt: string;
}

async function verifySignature(proof: string, refuse: DpopErrors): Promise<VerifiedProof> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw refuse.invalidProof('The DPoP proof must be one compact JWT');
  }
  const jwk = header.jwk;
  if (header.typ !== 'dpop+jwt' || !isSupportedAlg(header.alg) || !isPublicJwk(jwk)) {
    throw refuse.invalidProof(
      'The DPoP proof header must have typ dpop+jwt, alg EdDSA, Ed25519, ES256, RS256 or PS256, and a public jwk',
    );
  }
  // node:crypto rather than jose's jwtVerify with EmbeddedJWK (docs/performance.md #20).
  const proofKey = dpopProofKey(jwk, header.alg!);
  try {
    const { header: verifiedHeader, payload } = await verifyCompactJws(
      proof,
      DPOP_SIGNING_ALGORITHMS as readonly VerifiableAlg[],
      () => proofKey?.key,
    );
    checkJwtClaims(verifiedHeader, payload, { typ: 'dpop+jwt' });
    return { payload, jkt: proofKey!.jkt };
  } catch (error) {
    if (error instanceof errors.JOSEError) {
      throw refuse.invalidProof('The DPoP proof signature does not verify with its jwk', {
        detail: `DPoP proof rejected: ${error.code}`,
      });
    }
    throw error;
  }
}

function isSupportedAlg(alg: string | undefined): boolean {
  return alg !== undefined && DPOP_SIGNING_ALGORITHMS.includes(alg);
}

// RFC 9449 section 4.2: the jwk MUST NOT contain a private key.
function isPublicJwk(jwk: JWK | undefined): jwk is JWK {
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) return false;
  return !['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'].some((member) => member in jwk);
}

function checkClaims(
  { config }: Deps,
  presented: PresentedDpopProof,
  payload: Record<string, unknown>,
  { accessToken }: DpopProofChecks,
  refuse: DpopErrors,
  now: number,
): string {
  const { jti, htm, htu, iat, ath } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > MAX_JTI_LENGTH) {
    throw refuse.invalidProof('The DPoP proof must carry a jti');
  }
  if (htm !== presented.method)
    throw refuse.invalidProof('The DPoP proof htm does not match the request method');
  if (typeof htu !== 'string' || !sameResource(htu, `${config.issuer}${presented.path}`)) {
    throw refuse.invalidProof('The DPoP proof htu does not match the request URI');
  }
  if (typeof iat !== 'number' || Math.abs(now / 1000 - iat) > DPOP_IAT_WINDOW_SECONDS) {
    throw refuse.invalidProof('The DPoP proof iat is not within 60 seconds of the current time');
  }
  if (accessToken !== undefined && ath !== accessTokenHash(accessToken)) {
    throw refuse.invalidProof('The DPoP proof ath does not match the access token');
  }
  return jti;
}

// RFC 9449 section 4.3 item 9: htu compared without query and fragment, after normalisation
// (RFC 3986 section 6.2.2 and 6.2.3, as the URL parser does).
function sameResource(htu: string, expected: string): boolean {
  if (!URL.canParse(htu)) return false;
  const url = new URL(htu);
  url.search = '';
  url.hash = '';
  return url.href === new URL(expected).href;
}

function checkNonce(
  { config }: Deps,
  nonce: unknown,
  required: boolean,
  refuse: DpopErrors,
  now: number,
): void {
  if (nonce === undefined && !required) return;
  if (typeof nonce === 'string' && isFreshDpopNonce(config.secretHashKey, nonce, now)) return;
  throw refuse.useNonce(
    nonce === undefined
      ? 'The DPoP proof must carry the nonce of the DPoP-Nonce header'
      : 'The DPoP proof nonce is not current; use the nonce of the DPoP-Nonce header',
    currentDpopNonce(config.secretHashKey, now),
  );
}
