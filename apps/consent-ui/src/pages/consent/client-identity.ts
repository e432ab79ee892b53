import { html, type SafeHtml } from '../../html/html.js';
import type { ConsentPrompt } from '../authorization/authorization-port.js';

/**
 * docs/hosted-pages.md #24: what the consent screen can say about who asks, beyond the name the
 * client chose. A developer's client (pre_registered) is accountable to a signed-in developer
 * and is named as itself; a client from open registration or a client ID metadata document
 * names itself, so the screen calls it an unverified app, quotes its name as its own claim and
 * points at the hosts that do identify it: where the browser goes back and, for a document
 * client, where its document lives.
 */
export interface ClientIdentity {
  verified: boolean;
  /** How the page names the client in sentences. */
  displayName: string;
  /** The host of the redirect URI the decision ends at. */
  redirectHost: string;
  /** For an unverified client: the plain-words notice. */
  notice?: SafeHtml;
}

export function clientIdentity(prompt: ConsentPrompt): ClientIdentity {
  const redirectHost = hostOf(prompt.redirectOrigin);
  if (prompt.clientSource === 'pre_registered') {
    return { verified: true, displayName: prompt.clientName, redirectHost };
  }
  const where =
    prompt.clientSource === 'cimd'
      ? html`in its metadata document at <strong>${hostOf(prompt.clientId)}</strong>`
      : html`when it registered here`;
  return {
    verified: false,
    displayName: 'It',
    redirectHost,
    notice: html`<p class="notice">
      <strong>Unverified app.</strong> It calls itself “${prompt.clientName}”, a name it chose ${where};
      nobody has checked who runs it. Allow only if you trust <strong>${redirectHost}</strong>.
    </p>`,
  };
}

// The host with its port when not the default (URL.host); the whole value when it is no URL.
function hostOf(value: string): string {
  return URL.canParse(value) ? new URL(value).host || value : value;
}
