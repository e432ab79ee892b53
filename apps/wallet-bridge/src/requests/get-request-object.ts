import { NotFoundError } from '@authz/shared/errors';
import { requireWallet, type Registry } from '../registry.js';
import { isIdentifierShaped } from './presentation-request.js';
import { signRequestObject } from './request-object.js';

type Deps = Pick<Registry, 'requests' | 'wallet'>;

/**
 * interface.md 4.9 GET /oid4vp/request/{handle}: the signed request object of a pending, unexpired
 * request, served once (docs/wallet.md #20): a wallet fetches it once, and whoever fetches it
 * second (someone who saw the QR code) gets neither its state nor its nonce. Malformed,
 * unknown, expired, answered and already served handles are one NotFoundError.
 */
export async function getRequestObject(deps: Deps, handle: string): Promise<string> {
  const config = requireWallet(deps);
  const request = isIdentifierShaped(handle) ? await deps.requests.serveOnce(handle, new Date()) : undefined;
  if (!request) throw new NotFoundError();
  return signRequestObject(config, request);
}
