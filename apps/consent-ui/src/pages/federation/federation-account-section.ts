import { html, type SafeHtml } from '../../html/html.js';
import type { Registry } from '../../registry.js';
import type { BrowserSession } from '../browser-session.js';

/**
 * The account page's "Sign-in methods" (interface.md 4.14): the upstream identities linked to
 * the account, each with "Unlink" unless it is the last way in (docs/federation.md #9), and a
 * "Link" button per configured provider. Nothing when no provider is configured and none linked.
 */
export async function federationAccountSection(
  { federation, federationLinks }: Pick<Registry, 'federation' | 'federationLinks'>,
  session: BrowserSession,
): Promise<SafeHtml | undefined> {
  const [providers, linked] = await Promise.all([
    federation.listProviders(),
    federation.listLinked(session.userId),
  ]);
  if (providers.length === 0 && linked.identities.length === 0) return undefined;
  const csrf = html`<input type="hidden" name="csrf_token" value="${session.csrfToken}" />`;
  const canUnlink = linked.signInMethods > 1;
  return html`<section aria-labelledby="upstream-heading">
    <h2 id="upstream-heading">Sign-in methods</h2>
    <ul class="sessions">
      ${linked.identities.map(
        (identity) =>
          html`<li>
            <p><strong>${identity.displayName}</strong></p>
            ${
              canUnlink
                ? html`<form method="post" action="${federationLinks.unlink()}">
                    ${csrf}<input type="hidden" name="identity_id" value="${identity.id}" />
                    <button type="submit" class="secondary">
                      Unlink<span class="visually-hidden"> ${identity.displayName}</span>
                    </button>
                  </form>`
                : html`<p class="muted">Your only way to sign in: it cannot be unlinked.</p>`
            }
          </li>`,
      )}
    </ul>
    ${providers.map(
      ({ id, displayName }) =>
        html`<form method="post" action="${federationLinks.start(id)}">
          ${csrf}
          <div class="actions"><button type="submit" class="secondary">Link ${displayName}</button></div>
        </form>`,
    )}
  </section>`;
}
