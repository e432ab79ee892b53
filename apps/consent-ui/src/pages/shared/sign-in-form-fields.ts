import { html, type SafeHtml } from '../../html/html.js';
import type { NextPage } from '../sign-in/after-sign-in.js';

/**
 * The hidden fields that carry a sign-in from one form to the next, on the sign-in form and on
 * its second step alike: the pending authorization's handle or the page a plain sign-in goes on
 * to, and the CSRF token bound to the pre-session cookie and that handle (docs/decisions.md #17).
 */
export function signInFormFields({
  handle,
  next,
  csrfToken,
}: {
  handle: string | undefined;
  next: NextPage | undefined;
  csrfToken: string;
}): SafeHtml {
  return html`${handle !== undefined && html`<input type="hidden" name="handle" value="${handle}" />`}
    ${next !== undefined && html`<input type="hidden" name="next" value="${next}" />`}
    <input type="hidden" name="csrf_token" value="${csrfToken}" />`;
}
