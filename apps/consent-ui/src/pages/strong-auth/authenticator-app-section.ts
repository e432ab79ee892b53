import { html, type SafeHtml } from '../../html/html.js';
import type { Registry } from '../../registry.js';

import type { SecondFactors } from './second-factor-port.js';

type Deps = Pick<Registry, 'strongAuthLinks'>;

/**
 * The account page's authenticator-app section (docs/strong-authentication.md #2, #9): set one
 * up, or see how many recovery codes are left and remove it. Both ask for the password again,
 * so a browser left signed in cannot change how the account signs in.
 */
export function authenticatorAppSection(
  deps: Deps,
  { totp, recoveryCodesLeft }: SecondFactors,
  csrf: SafeHtml,
): SafeHtml {
  const links = deps.strongAuthLinks;
  return html`<section aria-labelledby="totp-heading">
    <h2 id="totp-heading">Authenticator app</h2>
    ${
      totp
        ? html`<p>
              Two-step verification is <strong>on</strong>: signing in with your password also asks for a code
              from your authenticator app. Recovery codes left: <strong>${recoveryCodesLeft}</strong>.
            </p>
            <form method="post" action="${links.totpRemove()}">
              ${csrf}
              <div class="field">
                <label for="totp-remove-password">Your password</label>
                <input
                  id="totp-remove-password"
                  type="password"
                  name="password"
                  autocomplete="current-password"
                  required
                />
              </div>
              <div class="actions">
                <button type="submit" class="danger">Remove authenticator app</button>
              </div>
            </form>`
        : html`<p>Add a second step to your sign-in: a code from an authenticator app on your phone.</p>
            <form method="post" action="${links.totpBegin()}">
              ${csrf}
              <div class="field">
                <label for="totp-password">Your password</label>
                <input
                  id="totp-password"
                  type="password"
                  name="password"
                  autocomplete="current-password"
                  required
                />
              </div>
              <div class="actions">
                <button type="submit" class="primary">Set up authenticator app</button>
              </div>
            </form>`
    }
  </section>`;
}
