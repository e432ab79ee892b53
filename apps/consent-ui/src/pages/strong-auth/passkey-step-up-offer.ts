import { html, type SafeHtml } from '../../html/html.js';
import type { StrongAuthLinks } from './strong-auth-links.js';

/**
 * The step-up page's passkey button (docs/strong-authentication.md #21), outside any form so the
 * authenticator app's form stays the page's one form; hidden until the script finds WebAuthn.
 * The script posts the handle and CSRF token it carries, then the assertion.
 */
export function passkeyStepUpOffer(
  links: Pick<StrongAuthLinks, 'passkeyStepUpOptions' | 'passkeyStepUp'>,
  view: { handle: string; csrfToken: string; error: string | undefined },
): SafeHtml {
  const refused = view.error !== undefined;
  return html`<p>
      <button
        type="button"
        class="${refused ? 'primary' : 'secondary'}"
        id="passkey-step-up"
        hidden
        data-handle="${view.handle}"
        data-csrf-token="${view.csrfToken}"
        data-options="${links.passkeyStepUpOptions()}"
        data-action="${links.passkeyStepUp()}"
        data-error="passkey-step-up-error"
      >
        Use a passkey
      </button>
    </p>
    <p class="alert" id="passkey-step-up-error" ${refused ? html`role="alert"` : html`hidden`}>
      ${view.error ?? ''}
    </p>`;
}
