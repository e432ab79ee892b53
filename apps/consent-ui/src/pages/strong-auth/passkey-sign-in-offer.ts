import { html, type SafeHtml } from '../../html/html.js';
import { pageScripts } from '../../html/page-scripts.js';
import type { StrongAuthLinks } from './strong-auth-links.js';

/** The scripts of the passkey ceremonies, with their versions (docs/strong-authentication.md #20). */
export function passkeyScripts(links: Pick<StrongAuthLinks, 'webauthnScript' | 'passkeyScript'>): string[] {
  const scripts = pageScripts();
  return [
    `${links.webauthnScript()}?v=${scripts.webauthn.version}`,
    `${links.passkeyScript()}?v=${scripts.passkeys.version}`,
  ];
}

/**
 * The sign-in page's passkey button (docs/strong-authentication.md #18). It is outside the
 * sign-in form and not a submit button, so the form stays the page's one form
 * (docs/contract.md "Hosted pages"); hidden until the script finds WebAuthn, since nothing
 * else can use it. The script sends the sign-in form's CSRF token and pending authorization.
 * `autofill` off: the page that just refused a passkey does not offer it again by itself.
 */
export function passkeySignInOffer(links: StrongAuthLinks, formId: string, autofill: boolean): SafeHtml {
  return html`<p>
      <button
        type="button"
        class="secondary"
        id="passkey-sign-in"
        hidden
        data-form="${formId}"
        data-options="${links.passkeySignInOptions()}"
        data-action="${links.passkeySignIn()}"
        data-error="passkey-sign-in-error"
        data-autofill="${autofill ? 'on' : 'off'}"
      >
        Use a passkey
      </button>
    </p>
    <p class="alert" id="passkey-sign-in-error" hidden></p>`;
}
