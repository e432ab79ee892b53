import { html } from '../../html/html.js';
import type { ConsentPrompt } from '../authorization/authorization-port.js';
import { findBrowserSession, type BrowserSession } from '../browser-session.js';
import { outcomePage } from '../authorization/error-page.js';
import { isHandleShaped } from '../shared/handle.js';
import type { PageRequest } from '../shared/page-request.js';
import { documentPage, type PageResult } from '../shared/page-result.js';
import { readConsentDecision } from './consent-decision-form.js';
import type { Registry } from '../../registry.js';
import { clientIdentity } from './client-identity.js';
import { describeScope } from './scope-wording.js';
import { expiredRequestPage, refusalPage, signInRequiredPage } from '../status/status-pages.js';

type Deps = Pick<Registry, 'identity' | 'authorization' | 'links'>;

/**
 * GET /ui/consent?handle= (interface.md 4.5): what the client asks for, in plain words, the scopes not
 * granted before marked new. The form carries the session's CSRF token (docs/decisions.md #17).
 */
export async function showConsentPage(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await findBrowserSession(deps, request.cookies);
  if (!session) return signInRequiredPage(deps);
  const handle = request.query.get('handle');
  if (!isHandleShaped(handle)) return expiredRequestPage(deps);
  let prompt: ConsentPrompt;
  try {
    prompt = await deps.authorization.getConsentPrompt({ handle, sessionToken: session.token });
  } catch (error) {
    return refusalPage(deps, error);
  }
  return consentFormPage(deps, { handle, session, prompt });
}

/**
 * POST /ui/consent (interface.md 4.5): a signed-in browser, the session's CSRF token compared in
 * constant time (docs/decisions.md #17, #19), and a decision of allow or deny; oauth then sends the
 * browser back to the client with a code or access_denied (RFC 6749 section 4.1.2.1).
 */
export async function submitConsent(deps: Deps, request: PageRequest): Promise<PageResult> {
  const read = await readConsentDecision(deps, request);
  if ('refused' in read) return read.refused;
  const { session, allow, handle } = read.decision;
  try {
    const outcome = await deps.authorization.decideConsent({
      handle,
      sessionToken: session.token,
      allow,
      origin: request.origin,
    });
    return outcomePage(deps, outcome, 303);
  } catch (error) {
    return refusalPage(deps, error);
  }
}

interface ConsentView {
  handle: string;
  session: BrowserSession;
  prompt: ConsentPrompt;
}

/**
 * docs/contract.md "Hosted pages": an approve button "Allow" and a deny button "Deny". Who asks
 * is told by more than the client's own name (docs/hosted-pages.md #24): the host the browser
 * goes back to, the resources the access is for, and an unverified client said to be one.
 */
function consentFormPage({ links }: Pick<Registry, 'links'>, { handle, session, prompt }: ConsentView) {
  const fresh = new Set(prompt.newScopes);
  const identity = clientIdentity(prompt);
  // interface.md 4.10: "Your name" only for a user who has set one.
  const describe = (scope: string) => describeScope(scope, session);
  const scopes = prompt.scopes.map(
    (scope) =>
      html`<li>
        <span>${describe(scope)}</span>${fresh.has(scope) && html` <span class="badge">New</span>`}
      </li> `,
  );
  const resources = prompt.resources.map((resource) => html`<li><code>${resource}</code></li> `);
  const page = documentPage(links, 200, {
    title: 'Allow access?',
    heading: identity.verified
      ? `Allow ${prompt.clientName} to access your account?`
      : 'Allow an unverified app to access your account?',
    content: html`<p class="muted">Signed in as <strong>${session.email}</strong></p>
      ${identity.notice}
      ${
        scopes.length > 0
          ? html`<p>${identity.displayName} is asking for:</p>
              <ul class="scopes">
                ${scopes}
              </ul>`
          : html`<p>${identity.displayName} is asking to sign you in, with no access to your information.</p>`
      }
      ${
        resources.length > 0 &&
        html`<p>The access is only for:</p>
          <ul class="resources">
            ${resources}
          </ul>`
      }
      <p>After you choose, you go back to <strong>${identity.redirectHost}</strong>.</p>
      <form method="post" action="${links.consent()}">
        <input type="hidden" name="handle" value="${handle}" />
        <input type="hidden" name="csrf_token" value="${session.csrfToken}" />
        <div class="actions">
          <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
          <button type="submit" name="decision" value="allow" class="primary">Allow</button>
        </div>
      </form>`,
  });
  // Either decision is redirected on to the client's redirect URI (CSP form-action).
  return { ...page, formActionOrigins: [prompt.redirectOrigin] };
}
