import { NotFoundError } from '@authz/shared/errors';
import { requireWallet, type Registry } from '../registry.js';
import { isIdentifierShaped } from './presentation-request.js';
import { signRequestObject } from './request-object.js';

type Deps = Pick<Registry, 'requests' | 'wallet'>;

/**
 * interface.md 4.9 GET /oid4vp/request/{handle}: the signed request object of a pending, unexpired
 * request. Reads only, so a wallet may fetch it again. Malformed, unknown, expired and already
 * answered handles are one NotFoundError.
 */
export async function getRequestObject(deps: Deps, handle: string): Promise<string> {
  const config = requireWallet(deps);
  const request = isIdentifierShaped(handle)
    ? await deps.requests.findPending(handle, new Date())
    : undefined;
  if (!request) throw new NotFoundError();
  return signRequestObject(config, request);
}
