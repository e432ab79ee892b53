import { html, type SafeHtml } from '../../html/html.js';
import type { BrowserSession } from '../browser-session.js';
import type { Registry } from '../../registry.js';
import { hasRecentSignIn } from './recent-sign-in.js';
import type { PasskeyView } from './second-factor-port.js';

type Deps = Pick<Registry, 'links' | 'strongAuthLinks'>;

/**
 * The account page's passkeys (docs/strong-authentication.md #16, #17): each with its name,
 * creation and last use, a rename form and a remove button; and the form that adds one, which
 * the script completes with the new credential. Adding needs a recent sign-in.
 */
export function passkeySection(
  deps: Deps,
  session: BrowserSession,
  passkeys: PasskeyView[],
  csrf: SafeHtml,
): SafeHtml {
  const links = deps.strongAuthLinks;
  return html`<section aria-labelledby="passkeys-heading">
    <h2 id="passkeys-heading">Passkeys</h2>
    <p>Sign in without a password, with your device's screen lock or a security key.</p>
    ${
      passkeys.length > 0 &&
      html`<ul class="passkeys">
        ${passkeys.map((passkey) => passkeyItem(deps, passkey, csrf))}
      </ul>`
    }
    ${
      hasRecentSignIn(session)
        ? html`<form
            method="post"
            action="${links.passkeyRegister()}"
            id="passkey-register"
            data-options="${links.passkeyRegistrationOptions()}"
            data-error="passkey-register-error"
          >
            ${csrf}
            <input type="hidden" name="response" value="" />
            <div class="field">
              <label for="passkey-name">Passkey label</label>
              <input
                id="passkey-name"
                type="text"
                name="name"
                maxlength="64"
                placeholder="Passkey"
                autocomplete="off"
              />
            </div>
            <p class="alert" id="passkey-register-error" hidden></p>
            <div class="actions"><button type="submit" class="primary">Add a passkey</button></div>
          </form>`
        : html`<p>
            Adding a passkey needs a recent sign-in.
            <a href="${deps.links.login()}?next=account">Sign in again</a> to add one.
          </p>`
    }
  </section>`;
}

function passkeyItem({ strongAuthLinks: links }: Deps, passkey: PasskeyView, csrf: SafeHtml): SafeHtml {
  const idField = html`<input type="hidden" name="passkey_id" value="${passkey.id}" />`;
  return html`<li>
    <p><strong>${passkey.name}</strong></p>
    <p class="muted">
      Added ${formatTime(passkey.createdAt)} ·
      ${passkey.lastUsedAt === undefined ? 'never used' : `last used ${formatTime(passkey.lastUsedAt)}`}
    </p>
    <form method="post" action="${links.passkeyRename()}">
      ${csrf} ${idField}
      <div class="field">
        <label for="passkey-rename-${passkey.id}">Rename to</label>
        <input
          id="passkey-rename-${passkey.id}"
          type="text"
          name="name"
          maxlength="64"
          autocomplete="off"
          required
        />
      </div>
      <button type="submit" class="secondary">
        Rename<span class="visually-hidden"> ${passkey.name}</span>
      </button>
    </form>
    <form method="post" action="${links.passkeyRemove()}">
      ${csrf} ${idField}
      <button type="submit" class="danger">
        Remove<span class="visually-hidden"> ${passkey.name}</span>
      </button>
    </form>
  </li>`;
}

/** UTC to the minute, as the sessions list shows times. */
function formatTime(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
