import { html } from '../../html/html.js';
import { findBrowserSession, type BrowserSession } from '../browser-session.js';
import { describeScope } from '../consent/scope-wording.js';
import { isHandleShaped } from '../shared/handle.js';
import type { PageRequest } from '../shared/page-request.js';
import { documentPage, redirectPage, type PageResult } from '../shared/page-result.js';
import { readConsentDecision } from '../consent/consent-decision-form.js';
import type { Registry } from '../../registry.js';
import { expiredRequestPage, refusalPage, signInRequiredPage } from '../status/status-pages.js';
import type { DeviceConsent } from './device-port.js';

type Deps = Pick<Registry, 'identity' | 'device' | 'deviceLinks' | 'links'>;

/** RFC 8628 section 5.4: the question that stops a user approving a device someone else holds. */
export const DEVICE_QUESTION = 'Did you start this on your device?';

/**
 * GET /ui/device/consent?handle= (interface.md 4.13): names the device's client, what it asks
 * for, and asks whether the user started this themselves. The form carries the session's CSRF
 * token (docs/decisions.md #17).
 */
export async function showDeviceConsentPage(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await findBrowserSession(deps, request.cookies);
  if (!session) return signInRequiredPage(deps);
  const handle = request.query.get('handle');
  if (!isHandleShaped(handle)) return expiredRequestPage(deps);
  let consent: DeviceConsent;
  try {
    consent = await deps.device.getDeviceConsent({ handle, sessionToken: session.token });
  } catch (error) {
    return refusalPage(deps, error);
  }
  return deviceConsentFormPage(deps, { handle, session, consent });
}

/**
 * POST /ui/device/consent: a signed-in browser, the session's CSRF token compared in constant
 * time (docs/decisions.md #19), and allow or deny; then the page that ends the flow. The device
 * learns the answer at its next poll (RFC 8628 section 3.5).
 */
export async function submitDeviceConsent(deps: Deps, request: PageRequest): Promise<PageResult> {
  const read = await readConsentDecision(deps, request);
  if ('refused' in read) return read.refused;
  const { session, allow, handle } = read.decision;
  try {
    const { approved } = await deps.device.decideDeviceConsent({
      handle,
      sessionToken: session.token,
      allow,
      origin: request.origin,
    });
    return redirectPage(303, approved ? deps.deviceLinks.approved() : deps.deviceLinks.denied());
  } catch (error) {
    return refusalPage(deps, error);
  }
}

interface DeviceConsentView {
  handle: string;
  session: BrowserSession;
  consent: DeviceConsent;
}

/**
 * docs/contract.md "Hosted pages": "Allow" and "Deny", as the code flow's consent screen. A
 * client the user cannot hold accountable is called unverified (docs/hosted-pages.md #24);
 * there is no redirect host to name, the flow ends on our own page.
 */
function deviceConsentFormPage(
  { links, deviceLinks }: Pick<Registry, 'links' | 'deviceLinks'>,
  { handle, session, consent }: DeviceConsentView,
): PageResult {
  const verified = consent.clientSource === 'pre_registered';
  const scopes = consent.scopes.map((scope) => html`<li><span>${describeScope(scope, session)}</span></li> `);
  return documentPage(links, 200, {
    title: 'Connect a device?',
    heading: verified
      ? `Allow ${consent.clientName} on your device to access your account?`
      : 'Allow an unverified app on your device to access your account?',
    content: html`<p class="muted">Signed in as <strong>${session.email}</strong></p>
      ${
        !verified &&
        html`<p class="notice">
          <strong>Unverified app.</strong> It calls itself “${consent.clientName}”, a name it chose when it
          registered; nobody has checked who runs it.
        </p>`
      }
      ${
        scopes.length > 0
          ? html`<p>The app on your device is asking for:</p>
              <ul class="scopes">
                ${scopes}
              </ul>`
          : html`<p>The app on your device is asking to sign you in, with no access to your information.</p>`
      }
      <p><strong>${DEVICE_QUESTION}</strong> If someone else gave you this code, choose Deny.</p>
      <form method="post" action="${deviceLinks.consent()}">
        <input type="hidden" name="handle" value="${handle}" />
        <input type="hidden" name="csrf_token" value="${session.csrfToken}" />
        <div class="actions">
          <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
          <button type="submit" name="decision" value="allow" class="primary">Allow</button>
        </div>
      </form>`,
  });
}
