import { NotFoundError } from '@authz/shared/errors';
import type { PageRequest } from '../shared/page-request.js';
import { redirectPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import { BINDER_COOKIE, returnToFor } from './wallet-cookies.js';
import { walletRefusalPage } from './wallet-status-pages.js';

type Deps = Pick<Registry, 'wallet' | 'walletLinks' | 'links'>;

/**
 * GET /ui/wallet-return?response_code=... (docs/wallet.md #18, OpenID4VP 1.0 section 8.2): where
 * a wallet on this device sends the browser after its direct_post. The response code counts
 * only with the binder cookie of the flow it belongs to, once; then 303 to that flow's page,
 * which still asks for the confirmation (docs/wallet.md #16). Any other browser (the phone of a
 * cross-device flow, whoever copied the URL), a second use, or a stale code: the uniform
 * refusal.
 */
export async function returnFromWallet(deps: Deps, request: PageRequest): Promise<PageResult> {
  const responseCode = request.query.get('response_code');
  const binder = request.cookies[BINDER_COOKIE];
  if (!responseCode || !binder) return walletRefusalPage(deps);
  let flow: { handle: string; purpose: 'sign_in' | 'link' };
  try {
    flow = await deps.wallet.redeemResponseCode({ responseCode, binder });
  } catch (error) {
    if (error instanceof NotFoundError) return walletRefusalPage(deps);
    throw error;
  }
  const { walletLinks } = deps;
  return redirectPage(
    303,
    flow.purpose === 'link'
      ? walletLinks.linkOutcome(flow.handle)
      : walletLinks.signInStatus(flow.handle, returnToFor(request.cookies, flow.handle)),
  );
}
