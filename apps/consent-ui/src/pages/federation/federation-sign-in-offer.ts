import { html, type SafeHtml } from '../../html/html.js';
import type { Registry } from '../../registry.js';

/**
 * The sign-in page's "Continue with <displayName>" links (interface.md 4.14), one per
 * configured upstream, continuing the same pending authorization. Password sign-in never
 * depends on them: when identity cannot list the providers, there is simply no offer.
 */
export async function federationSignInOffer(
  { federation, federationLinks }: Pick<Registry, 'federation' | 'federationLinks'>,
  handle: string | undefined,
): Promise<SafeHtml | undefined> {
  const providers = await federation.listProviders().catch(() => []);
  if (providers.length === 0) return undefined;
  return html`${providers.map(
    ({ id, displayName }) =>
      html`<p class="alternative">
        <a href="${federationLinks.start(id, handle)}">Continue with ${displayName}</a>
      </p>`,
  )}`;
}
