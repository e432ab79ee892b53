import {
  InvalidBearerTokenError,
  ResourceInvalidDpopProofError,
  ResourceUseDpopNonceError,
} from '@authz/shared/errors';
import type { JWTPayload } from 'jose';
import type { Registry } from '../../registry.js';
import type { PresentedDpopProof } from './dpop-binding.js';
import { verifyDpopProof, type DpopErrors } from './verify-dpop-proof.js';

type Deps = Pick<Registry, 'config' | 'dpopJtis'>;

/** RFC 9449 section 7.1: a resource refuses with 401 and a DPoP challenge. */
const RESOURCE_ERRORS: DpopErrors = {
  invalidProof: (message, init = {}) =>
    new ResourceInvalidDpopProofError({ message, ...(init.detail ? { detail: init.detail } : {}) }),
  useNonce: (message, nonce) => new ResourceUseDpopNonceError({ message, attributes: { dpopNonce: nonce } }),
};

/**
 * RFC 9449 section 7: how a verified access token was presented. With the DPoP scheme it must be
 * DPoP-bound and come with a proof of its key carrying its ath; with Bearer it must not be
 * DPoP-bound (section 7.2, docs/par-and-dpop.md #12). A nonce is not demanded at a resource, but
 * one that is sent must be current (docs/par-and-dpop.md #9).
 */
export async function checkResourcePresentation(
  deps: Deps,
  accessToken: string,
  payload: JWTPayload,
  presented: PresentedDpopProof | undefined,
): Promise<void> {
  const boundTo = boundKeyOf(payload);
  if (presented === undefined) {
    if (boundTo === undefined) return;
    throw new InvalidBearerTokenError({
      message: 'The access token is DPoP-bound: send it with the DPoP scheme and a proof',
      attributes: { challenge: 'DPoP' },
    });
  }
  if (boundTo === undefined) {
    throw new InvalidBearerTokenError({
      message: 'The access token is not DPoP-bound: send it with the Bearer scheme',
      attributes: { challenge: 'DPoP' },
    });
  }
  if (presented.proof === '') throw RESOURCE_ERRORS.invalidProof('A DPoP proof is required');
  const { jkt } = await verifyDpopProof(
    deps,
    presented,
    { requireNonce: false, accessToken },
    RESOURCE_ERRORS,
  );
  if (jkt !== boundTo) {
    throw RESOURCE_ERRORS.invalidProof('The DPoP proof key is not the key the access token is bound to');
  }
}

/** RFC 9449 section 6.1: cnf.jkt of a bound token. */
export function boundKeyOf(payload: JWTPayload): string | undefined {
  const cnf = payload.cnf as { jkt?: unknown } | undefined;
  return typeof cnf?.jkt === 'string' ? cnf.jkt : undefined;
}
