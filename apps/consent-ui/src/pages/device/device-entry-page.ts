import { NotFoundError, RateLimitedError } from '@authz/shared/errors';
import {
  isPreSessionCsrfTokenValid,
  isPreSessionShaped,
  newPreSession,
  preSessionCsrfToken,
} from '../../cookies/login-csrf.js';
import { LOGIN_COOKIE, loginCookie } from '../../cookies/set-cookie.js';
import { html } from '../../html/html.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, documentPage, redirectPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import { tooManyAttemptsPage } from '../status/status-pages.js';

type Deps = Pick<Registry, 'device' | 'deviceLinks' | 'links' | 'loginCsrfKey'>;

/**
 * docs/device-grant.md #4: one message for a mistyped, unknown, used or expired code alike, so
 * the page tells a guesser nothing about which codes exist.
 */
export const WRONG_USER_CODE = 'That code is not valid. Check the code shown on your device and try again.';

/** A typed code is echoed back into the form at most this long. */
const MAX_ECHOED_LENGTH = 32;

/**
 * GET /ui/device (interface.md 4.13, RFC 8628 section 3.3): the form for the user code, filled
 * in from `user_code` when the device showed verification_uri_complete (section 3.3.1); the
 * user still confirms with the button, so a link alone approves nothing. Bound to the
 * pre-session cookie like the sign-in form (docs/decisions.md #17).
 */
export async function showDeviceEntryPage(deps: Deps, request: PageRequest): Promise<PageResult> {
  const typed = (request.query.get('user_code') ?? '').slice(0, MAX_ECHOED_LENGTH);
  const held = request.cookies[LOGIN_COOKIE];
  const preSession = isPreSessionShaped(held) ? held : newPreSession();
  return entryFormPage(
    deps,
    200,
    { preSession, typed },
    preSession === held ? [] : [loginCookie(preSession)],
  );
}

/**
 * POST /ui/device: the CSRF token must fit this browser's pre-session; oauth then looks the
 * code up (the gateway already spent the address's budget). A live code goes on through
 * /ui/resume, which signs the user in first when needed (docs/device-grant.md #7).
 */
export async function submitDeviceEntry(deps: Deps, request: PageRequest): Promise<PageResult> {
  const preSession = request.cookies[LOGIN_COOKIE];
  const sent = request.form.get('csrf_token');
  if (!isPreSessionCsrfTokenValid(deps.loginCsrfKey, 'device-code', preSession, undefined, sent)) {
    return csrfRefusal();
  }
  const typed = request.form.get('user_code') ?? '';
  let handle: string;
  try {
    handle = await deps.device.enterUserCode({ userCode: typed, origin: request.origin });
  } catch (error) {
    if (error instanceof RateLimitedError) return tooManyAttemptsPage(deps);
    if (error instanceof NotFoundError) {
      return entryFormPage(deps, 400, {
        preSession: preSession!,
        typed: typed.slice(0, MAX_ECHOED_LENGTH),
        wrong: true,
      });
    }
    throw error;
  }
  return redirectPage(303, deps.links.resume(handle));
}

interface EntryFormView {
  preSession: string;
  typed: string;
  wrong?: boolean;
}

function entryFormPage(
  { links, deviceLinks, loginCsrfKey }: Deps,
  status: number,
  { preSession, typed, wrong = false }: EntryFormView,
  setCookies: string[] = [],
): PageResult {
  const csrfToken = preSessionCsrfToken(loginCsrfKey, 'device-code', preSession, undefined);
  const invalid = wrong && html` aria-invalid="true" aria-describedby="user-code-error"`;
  return documentPage(
    links,
    status,
    {
      title: 'Connect a device',
      content: html`${wrong && html`<p class="alert" role="alert" id="user-code-error">${WRONG_USER_CODE}</p>`}
        <p>Enter the code shown on your device.</p>
        <form method="post" action="${deviceLinks.entry()}">
          <input type="hidden" name="csrf_token" value="${csrfToken}" />
          <div class="field">
            <label for="user_code">Code</label>
            <input
              id="user_code"
              type="text"
              name="user_code"
              value="${typed}"
              autocomplete="one-time-code"
              autocapitalize="characters"
              spellcheck="false"
              placeholder="XXXX-XXXX"
              required${invalid}
            />
          </div>
          <div class="actions">
            <button type="submit" class="primary">Continue</button>
          </div>
        </form>`,
    },
    setCookies,
  );
}
