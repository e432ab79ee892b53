import type { RedeemResponseCodeRequest } from '@authz/proto/walletbridge/v1/walletbridge';
import { NotFoundError } from '@authz/shared/errors';
import { requireWallet, type Registry } from '../registry.js';
import { isIdentifierShaped, isPastSettling, responseCodeHash } from '../requests/presentation-request.js';
import { isBoundTo } from './flow-lookup.js';

type Deps = Pick<Registry, 'requests' | 'wallet' | 'secretHashKey'>;

/**
 * docs/wallet.md #18 (OID4VP 1.0 section 8.2, response_code): the browser the wallet sent back
 * presents the code; it names a flow only with that flow's binder cookie, once, within the
 * flow's life. A wrong binder spends nothing (the starting browser can still use the code);
 * everything else is the uniform refusal. What it answers is where to go: the flow id, whose
 * page still asks for the confirmation (docs/wallet.md #16).
 */
export async function redeemResponseCode(
  deps: Deps,
  request: RedeemResponseCodeRequest,
): Promise<{ handle: string; purpose: string }> {
  requireWallet(deps);
  if (!isIdentifierShaped(request.responseCode)) throw new NotFoundError();
  const hash = responseCodeHash(deps.secretHashKey, request.responseCode);
  const flow = await deps.requests.findByResponseCodeHash(hash);
  if (!flow || isPastSettling(flow) || !isBoundTo(deps, flow, request.binder)) throw new NotFoundError();
  if (!(await deps.requests.redeemResponseCode(flow.flowId, hash))) throw new NotFoundError();
  return { handle: flow.flowId, purpose: flow.purpose };
}
