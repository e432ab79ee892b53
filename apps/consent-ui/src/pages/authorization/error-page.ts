import { html } from '../../html/html.js';
import type { AuthorizationOutcome } from './authorization-port.js';
import { documentPage, redirectPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';

type Deps = Pick<Registry, 'links'>;

export interface AuthorizationErrorView {
  error: string;
  description: string;
}

/**
 * RFC 6749 section 4.1.2.1: when the client or its redirect URI cannot be trusted, the user is
 * told and never redirected. So the page offers no link back to the client; the error code and
 * description (oauth's, safe to show) are escaped like every other value.
 */
export function authorizationErrorPage(
  { links }: Deps,
  { error, description }: AuthorizationErrorView,
): PageResult {
  return documentPage(links, 400, {
    title: 'This request cannot be completed',
    content: html`<p>The application that sent you here made a request that cannot be accepted.</p>
      <p>Error: <code>${error}</code></p>
      ${description !== '' && html`<p class="muted">${description}</p>`}`,
  });
}

/** Where an authorization step sends the browser: on with a redirect, or to the error page. */
export function outcomePage(
  deps: Deps,
  outcome: AuthorizationOutcome,
  redirectStatus: 302 | 303,
): PageResult {
  return outcome.kind === 'redirect'
    ? redirectPage(redirectStatus, outcome.location)
    : authorizationErrorPage(deps, outcome);
}
