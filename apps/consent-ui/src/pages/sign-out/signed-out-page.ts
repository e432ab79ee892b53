import { html } from '../../html/html.js';
import { documentPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';

/**
 * GET /ui/signed-out (interface.md 4.3): where a logout without a registered
 * post_logout_redirect_uri ends. It names no client and links nowhere but the sign-in page.
 */
export function signedOutPage({ links }: Pick<Registry, 'links'>): PageResult {
  return documentPage(links, 200, {
    title: 'Signed out',
    heading: 'You are signed out',
    content: html`<p>You have signed out of your account on this browser.</p>
      <p><a href="${links.login()}">Sign in again</a></p>`,
  });
}

export async function showSignedOutPage(deps: Pick<Registry, 'links'>): Promise<PageResult> {
  return signedOutPage(deps);
}
