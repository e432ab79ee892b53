import { html } from '../../html/html.js';
import { findBrowserSession, type BrowserSession } from '../browser-session.js';
import type { PageRequest } from '../shared/page-request.js';
import { documentPage, redirectPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import { ACCOUNT_NOTICES, type AccountNotice } from './account-links.js';
import type { AccountSession } from './account-port.js';
import { federationAccountSection } from '../federation/federation-account-section.js';
import { authenticatorAppSection } from '../strong-auth/authenticator-app-section.js';
import { passkeySection } from '../strong-auth/passkey-section.js';
import { passkeyScripts } from '../strong-auth/passkey-sign-in-offer.js';

type Deps = Pick<
  Registry,
  | 'identity'
  | 'links'
  | 'accounts'
  | 'accountLinks'
  | 'federation'
  | 'federationLinks'
  | 'secondFactors'
  | 'strongAuthLinks'
>;

/** What the delete form says when the password was wrong (docs/hosted-pages.md #28). */
export const WRONG_PASSWORD = 'The password is incorrect. Your account was not deleted.';

/**
 * GET /ui/account (interface.md 4.10): the signed-in user's email and its verification state, the
 * name form, links to change the password and the address, every live session with a "Sign
 * out" button each, sign-out, and account deletion with the password. Every form POSTs with
 * the session's CSRF token (docs/decisions.md #17). Without a session the browser is sent to
 * sign in and brought back here.
 */
export async function showAccountPage(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await findBrowserSession(deps, request.cookies);
  if (!session) return redirectPage(302, `${deps.links.login()}?next=account`);
  const done = request.query.get('done');
  const notice =
    done !== undefined && Object.hasOwn(ACCOUNT_NOTICES, done) ? (done as AccountNotice) : undefined;
  return accountPage(deps, session, { status: 200, ...(notice ? { notice } : {}) });
}

interface AccountView {
  status: number;
  notice?: AccountNotice;
  /** The delete form failed: its message. */
  deleteError?: string;
  /** The name form failed: its message. */
  nameError?: string;
}

/** The account page for `session`, with a notice or a form's error. */
export async function accountPage(
  deps: Deps,
  session: BrowserSession,
  view: AccountView,
): Promise<PageResult> {
  const sessions = await deps.accounts.listSessions(session.userId, session.sessionId);
  const signInMethods = await federationAccountSection(deps, session);
  const factors = await deps.secondFactors.factors(session.userId);
  const { links, accountLinks } = deps;
  const csrf = html`<input type="hidden" name="csrf_token" value="${session.csrfToken}" />`;
  const nameInvalid =
    view.nameError !== undefined && html` aria-invalid="true" aria-describedby="name-error"`;
  const deleteInvalid =
    view.deleteError !== undefined && html` aria-invalid="true" aria-describedby="delete-error"`;
  return documentPage(links, view.status, {
    title: 'Your account',
    scripts: passkeyScripts(deps.strongAuthLinks),
    content: html`${view.notice && html`<p class="notice" role="status">${ACCOUNT_NOTICES[view.notice]}</p>`}
      <section aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <p>
          Email: <strong>${session.email}</strong> (${session.emailVerified ? 'verified' : 'not verified'})
        </p>
        <p>
          <a href="${accountLinks.accountEmail()}">Change email</a> ·
          <a href="${accountLinks.accountPassword()}">Change password</a>
        </p>
        <form method="post" action="${accountLinks.accountName()}">
          ${csrf}
          <div class="field">
            <label for="name">Name</label>
            <input
              id="name"
              type="text"
              name="name"
              value="${session.name ?? ''}"
              autocomplete="name"
              maxlength="255"
              ${nameInvalid}
            />
            <p class="muted">
              Shared with applications you allow to see your profile. Leave empty to remove it.
            </p>
            ${view.nameError !== undefined && html`<p class="alert" role="alert" id="name-error">${view.nameError}</p>`}
          </div>
          <div class="actions"><button type="submit" class="primary">Save name</button></div>
        </form>
      </section>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Where you are signed in</h2>
        <ul class="sessions">
          ${sessions.map((item) => sessionItem(deps, session, item, csrf))}
        </ul>
        <form method="post" action="${accountLinks.accountSignOut()}">
          ${csrf}
          <div class="actions"><button type="submit" class="secondary">Sign out</button></div>
        </form>
      </section>
      ${authenticatorAppSection(deps, factors, csrf)} ${passkeySection(deps, session, factors.passkeys, csrf)}
      ${signInMethods}
      <section aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete account</h2>
        <p>
          This removes your account, your sessions, the access you gave applications, and your OAuth clients
          and API keys. It cannot be undone.
        </p>
        <form method="post" action="${accountLinks.accountDelete()}">
          ${csrf}
          <div class="field">
            <label for="delete-password">Password</label>
            <input
              id="delete-password"
              type="password"
              name="password"
              autocomplete="current-password"
              required${deleteInvalid}
            />
            ${view.deleteError !== undefined && html`<p class="alert" role="alert" id="delete-error">${view.deleteError}</p>`}
          </div>
          <div class="actions"><button type="submit" class="danger">Delete account</button></div>
        </form>
      </section>`,
  });
}

function sessionItem(
  { accountLinks }: Pick<Registry, 'accountLinks'>,
  current: BrowserSession,
  item: AccountSession,
  csrf: ReturnType<typeof html>,
) {
  const isCurrent = item.id === current.sessionId;
  return html`<li>
    <p>
      <strong>${item.userAgent ?? 'Unknown device'}</strong
      >${isCurrent && html` <span class="badge">This browser</span>`}
    </p>
    <p class="muted">Signed in ${formatTime(item.createdAt)} · last seen ${formatTime(item.lastSeenAt)}</p>
    <form
      method="post"
      action="${isCurrent ? accountLinks.accountSignOut() : accountLinks.accountSessionEnd()}"
    >
      ${csrf} ${!isCurrent && html`<input type="hidden" name="session_id" value="${item.id}" />`}
      <button type="submit" class="secondary">
        Sign out<span class="visually-hidden"> ${item.userAgent ?? 'unknown device'}</span>
      </button>
    </form>
  </li>`;
}

/** UTC to the minute: the page knows no time zone of the reader. */
function formatTime(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
