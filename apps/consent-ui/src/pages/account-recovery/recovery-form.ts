import type { ValidationError } from '@authz/shared/errors';
import {
  isPreSessionCsrfTokenValid,
  isPreSessionShaped,
  newPreSession,
  preSessionCsrfToken,
  type PreSessionForm,
} from '../../cookies/login-csrf.js';
import { LOGIN_COOKIE, loginCookie } from '../../cookies/set-cookie.js';
import { html, type SafeHtml } from '../../html/html.js';
import type { PageRequest } from '../shared/page-request.js';

type RecoveryForm = Extract<PreSessionForm, 'forgot-password' | 'reset-password' | 'verify-email'>;

/**
 * The CSRF defence of the forms used before any sign-in (docs/hosted-pages.md #25): as the
 * sign-in form, a token bound to the browser's pre-session cookie, to the form, and to the
 * link's token when there is one (docs/decisions.md #17).
 */
export function preSessionForm(
  key: Buffer,
  form: RecoveryForm,
  request: PageRequest,
  linkToken: string | undefined,
): { csrfToken: string; setCookies: string[] } {
  const held = request.cookies[LOGIN_COOKIE];
  const preSession = isPreSessionShaped(held) ? held : newPreSession();
  return {
    csrfToken: preSessionCsrfToken(key, form, preSession, linkToken),
    setCookies: preSession === held ? [] : [loginCookie(preSession)],
  };
}

export function isPreSessionFormValid(
  key: Buffer,
  form: RecoveryForm,
  request: PageRequest,
  linkToken: string | undefined,
): boolean {
  return isPreSessionCsrfTokenValid(
    key,
    form,
    request.cookies[LOGIN_COOKIE],
    linkToken,
    request.form.get('csrf_token'),
  );
}

/** The field messages of a validation error, keyed by path. */
export function fieldMessages(error: ValidationError): Map<string, string> {
  return new Map((error.details ?? []).map((detail) => [detail.path, detail.message]));
}

/** One labelled input, marked invalid with its message when `problem` is set. */
export function field(input: {
  id: string;
  label: string;
  type: 'email' | 'password';
  autocomplete: string;
  value?: string;
  problem?: string | undefined;
}): SafeHtml {
  const errorId = `${input.id}-error`;
  const invalid = input.problem !== undefined && html` aria-invalid="true" aria-describedby="${errorId}"`;
  return html`<div class="field">
    <label for="${input.id}">${input.label}</label>
    <input
      id="${input.id}"
      type="${input.type}"
      name="${input.id}"
      value="${input.value ?? ''}"
      autocomplete="${input.autocomplete}"
      required${invalid}
    />
    ${input.problem !== undefined && html`<p class="alert" role="alert" id="${errorId}">${input.label} ${input.problem}.</p>`}
  </div>`;
}
