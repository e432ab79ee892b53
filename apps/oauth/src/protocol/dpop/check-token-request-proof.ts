import { InvalidDpopProofError, UseDpopNonceError } from '@authz/shared/errors';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { Registry } from '../../registry.js';
import type { DpopBinding, PresentedDpopProof } from './dpop-binding.js';
import { currentDpopNonce } from './dpop-nonce.js';
import { verifyDpopProof, type DpopErrors } from './verify-dpop-proof.js';

type Deps = Pick<Registry, 'config' | 'dpopJtis'>;

/**
 * RFC 9449 section 5 and 8: the errors of the token endpoint and PAR, 400, with the nonce the next
 * proof must carry in the DPoP-Nonce header (the gateway writes the `dpopNonce` attribute).
 */
const AUTHORIZATION_SERVER_ERRORS: DpopErrors = {
  invalidProof: (message, init = {}) =>
    new InvalidDpopProofError({ message, ...(init.detail ? { detail: init.detail } : {}) }),
  useNonce: (message, nonce) => new UseDpopNonceError({ message, attributes: { dpopNonce: nonce } }),
};

/**
 * A DPoP proof at the token endpoint or PAR (RFC 9449 sections 5 and 10.1), where the server's
 * nonce is always required (docs/par-and-dpop.md #9). Undefined when no proof was sent.
 */
export async function checkTokenRequestProof(
  deps: Deps,
  presented: PresentedDpopProof | undefined,
): Promise<DpopBinding | undefined> {
  if (presented === undefined) return undefined;
  return verifyDpopProof(deps, presented, { requireNonce: true }, AUTHORIZATION_SERVER_ERRORS);
}

/** RFC 9449 section 5.2: dpop_bound_access_tokens makes a proof mandatory (docs/par-and-dpop.md #11). */
export function checkProofRequired(client: AuthenticatedClient, binding: DpopBinding | undefined): void {
  if (client.dpopBoundAccessTokens && !binding) {
    throw new InvalidDpopProofError({ message: 'This client must send a DPoP proof' });
  }
}

/** The nonce a response to a DPoP request announces (RFC 9449 section 8.2). */
export function announcedNonce(deps: Pick<Registry, 'config'>, presented: PresentedDpopProof | undefined) {
  return presented === undefined ? undefined : currentDpopNonce(deps.config.secretHashKey);
}
