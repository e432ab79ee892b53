import { html } from '../../html/html.js';
import { documentPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';

type Deps = Pick<Registry, 'links'>;

/**
 * docs/hosted-pages.md #21, interface.md 3: every failure of a wallet flow that is not one of the five link
 * statuses is this one page: an unknown or expired handle, a missing or foreign binder cookie,
 * a declined or unverifiable presentation, a credential linked to no account, a sign-in
 * already delivered. It never says which, so it tells nothing to someone probing handles.
 */
export function walletRefusalPage({ links }: Deps): PageResult {
  return documentPage(links, 400, {
    title: 'Wallet request not accepted',
    heading: 'This wallet request cannot be used',
    content: html`<p>
        The request has expired, was already used, was started in another browser, or the wallet's answer was
        not accepted.
      </p>
      <p>Start again from the application you came from.</p>`,
  });
}
