import { html, type SafeHtml } from '../../html/html.js';
import type { Registry } from '../../registry.js';

/** A slow wallet-bridge may cost the sign-in page its wallet link, never much of its time. */
const OFFER_PROBE_TIMEOUT_MS = 1000;

/**
 * The sign-in page's link to wallet sign-in (interface.md 4.5), continuing the same pending
 * authorization; offered only while wallet-bridge says the feature is on. Password sign-in
 * never depends on wallet-bridge: when it cannot be asked, there is simply no offer.
 */
export async function walletSignInOffer(
  { wallet, walletLinks }: Pick<Registry, 'wallet' | 'walletLinks'>,
  handle: string | undefined,
): Promise<SafeHtml | undefined> {
  const available = await wallet.isAvailable({ timeoutMs: OFFER_PROBE_TIMEOUT_MS }).catch(() => false);
  if (!available) return undefined;
  return html`<p class="alternative">
    <a href="${walletLinks.signIn(handle)}">Sign in with a wallet instead</a>
  </p>`;
}
