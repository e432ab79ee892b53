import { html, type SafeHtml } from '../../html/html.js';

/**
 * The one input of a second step: an authenticator-app code or a recovery code. `one-time-code`
 * lets browsers offer a code they hold (HTML autofill); the pattern stays loose so a recovery
 * code fits too, identity judges the value.
 */
export function codeField(error: string | undefined): SafeHtml {
  const invalid = error !== undefined && html` aria-invalid="true" aria-describedby="code-error"`;
  return html`<div class="field">
    <label for="code">Code from your authenticator app, or a recovery code</label>
    <input
      id="code"
      type="text"
      name="code"
      inputmode="text"
      autocomplete="one-time-code"
      autocapitalize="none"
      spellcheck="false"
      maxlength="64"
      required${invalid}
    />
    ${error !== undefined && html`<p class="alert" role="alert" id="code-error">${error}</p>`}
  </div>`;
}

/** One message for a wrong, replayed or used code: which it was is not told. */
export const WRONG_CODE =
  'That code is not valid. Codes work once; wait for the next one, or use a recovery code.';
