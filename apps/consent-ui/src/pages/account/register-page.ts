import {
  ConflictError,
  RateLimitedError,
  ValidationError,
  type FieldViolation,
  InternalError,
} from '@authz/shared/errors';
import {
  isPreSessionCsrfTokenValid,
  isPreSessionShaped,
  newPreSession,
  preSessionCsrfToken,
} from '../../cookies/login-csrf.js';
import { clearedLoginCookie, LOGIN_COOKIE, loginCookie } from '../../cookies/set-cookie.js';
import { html, type SafeHtml } from '../../html/html.js';
import type { PendingAuthorization } from '../authorization/authorization-port.js';
import { findBrowserSession } from '../browser-session.js';
import { isHandleShaped } from '../shared/handle.js';
import type { PageRequest } from '../shared/page-request.js';
import { csrfRefusal, documentPage, redirectPage, signedIn, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import { expiredRequestPage, refusalPage, tooManyAttemptsPage } from '../status/status-pages.js';

type Deps = Pick<
  Registry,
  'identity' | 'authorization' | 'links' | 'loginCsrfKey' | 'accounts' | 'accountLinks'
>;

/** docs/hosted-pages.md #27: a taken address gets the API's generic words, nothing more. */
const NOT_CREATED = 'The account could not be created. If you already have one, sign in instead.';

const FIELD_LABELS: Readonly<Record<string, string>> = { email: 'Email', password: 'Password' };

/**
 * GET /ui/register (interface.md 4.10): the sign-up form, linked from the sign-in page as "Create an
 * account". Like the sign-in form it is bound to the pre-session cookie and the pending
 * authorization (docs/decisions.md #17), under its own label. A signed-in browser without a
 * pending authorization goes to its account page instead.
 */
export async function showRegisterPage(deps: Deps, request: PageRequest): Promise<PageResult> {
  const handle = request.query.get('handle') || undefined;
  if (handle === undefined) {
    if (await findBrowserSession(deps, request.cookies))
      return redirectPage(302, deps.accountLinks.account());
  } else if (!isHandleShaped(handle)) {
    return expiredRequestPage(deps);
  }
  let pending: PendingAuthorization | undefined;
  try {
    pending = handle === undefined ? undefined : await deps.authorization.getPendingAuthorization(handle);
  } catch (error) {
    return refusalPage(deps, error);
  }
  const held = request.cookies[LOGIN_COOKIE];
  const preSession = isPreSessionShaped(held) ? held : newPreSession();
  const csrfToken = preSessionCsrfToken(deps.loginCsrfKey, 'register', preSession, handle);
  return registerFormPage(
    deps,
    200,
    { handle, pending, csrfToken },
    preSession === held ? [] : [loginCookie(preSession)],
  );
}

/**
 * POST /ui/register: the CSRF token must fit the pre-session and the pending authorization;
 * identity then applies every rule of POST /auth/register. On success the new account is
 * signed in (a browser session, as a hosted sign-in opens) and the pending authorization
 * resumes; without one the browser goes to the account page.
 */
export async function submitRegister(deps: Deps, request: PageRequest): Promise<PageResult> {
  const preSession = request.cookies[LOGIN_COOKIE];
  const handle = request.form.get('handle') || undefined;
  if (
    !isPreSessionCsrfTokenValid(
      deps.loginCsrfKey,
      'register',
      preSession,
      handle,
      request.form.get('csrf_token'),
    )
  ) {
    return csrfRefusal();
  }
  if (handle !== undefined && !isHandleShaped(handle)) return expiredRequestPage(deps);
  const email = request.form.get('email') ?? '';
  const password = request.form.get('password') ?? '';
  try {
    await deps.accounts.register({ email, password, origin: request.origin });
  } catch (error) {
    if (error instanceof RateLimitedError) return tooManyAttemptsPage(deps);
    if (error instanceof ValidationError || error instanceof ConflictError) {
      return refusedRegisterPage(deps, { handle, preSession: preSession!, email, error });
    }
    throw error;
  }
  const signIn = await deps.identity.signIn({ email, password, origin: request.origin });
  // A new account has no second factor yet (docs/strong-authentication.md #6).
  if (signIn.mfaToken !== undefined)
    throw new InternalError({ detail: 'a new account asked for a second step' });
  const { sessionToken } = signIn;
  const next = handle === undefined ? deps.accountLinks.account() : deps.links.resume(handle);
  return signedIn(redirectPage(303, next, [clearedLoginCookie()]), sessionToken);
}

async function refusedRegisterPage(
  deps: Deps,
  input: {
    handle: string | undefined;
    preSession: string;
    email: string;
    error: ValidationError | ConflictError;
  },
): Promise<PageResult> {
  let pending: PendingAuthorization | undefined;
  try {
    pending =
      input.handle === undefined ? undefined : await deps.authorization.getPendingAuthorization(input.handle);
  } catch (error) {
    return refusalPage(deps, error);
  }
  const csrfToken = preSessionCsrfToken(deps.loginCsrfKey, 'register', input.preSession, input.handle);
  const conflict = input.error instanceof ConflictError;
  return registerFormPage(deps, conflict ? 409 : 400, {
    handle: input.handle,
    pending,
    csrfToken,
    email: input.email,
    problems: conflict ? [] : (input.error.details ?? []),
    conflict,
  });
}

interface RegisterFormView {
  handle: string | undefined;
  pending: PendingAuthorization | undefined;
  csrfToken: string;
  email?: string;
  problems?: readonly FieldViolation[];
  conflict?: boolean;
}

/** docs/hosted-pages.md #27: one form, an email input, a new-password input, one submit button. */
function registerFormPage(
  { links, accountLinks }: Pick<Registry, 'links' | 'accountLinks'>,
  status: number,
  { handle, pending, csrfToken, email = '', problems = [], conflict = false }: RegisterFormView,
  setCookies: string[] = [],
): PageResult {
  const problemOf = (field: string) => problems.find((problem) => problem.path === field);
  const invalid = (field: string) =>
    problemOf(field) && html` aria-invalid="true" aria-describedby="${field}-error"`;
  const fieldError = (field: string): SafeHtml | false => {
    const problem = problemOf(field);
    return (
      problem !== undefined &&
      html`<p class="alert" id="${field}-error">${FIELD_LABELS[field]} ${problem.message}.</p>`
    );
  };
  const other = problems.filter((problem) => !Object.hasOwn(FIELD_LABELS, problem.path));
  const clientName = pending?.clientName;
  const page = documentPage(
    links,
    status,
    {
      title: 'Create an account',
      heading:
        clientName === undefined ? 'Create an account' : `Create an account to continue to ${clientName}`,
      content: html`${conflict && html`<p class="alert" role="alert">${NOT_CREATED}</p>`}
        ${problems.length > 0 && html`<p class="alert" role="alert">Please correct the problems below.</p>`}
        ${other.map((problem) => html`<p class="alert">${problem.message}.</p>`)}
        <form method="post" action="${accountLinks.register()}">
          ${handle !== undefined && html`<input type="hidden" name="handle" value="${handle}" />`}
          <input type="hidden" name="csrf_token" value="${csrfToken}" />
          <div class="field">
            <label for="email">Email</label>
            <input
              id="email"
              type="email"
              name="email"
              value="${email}"
              autocomplete="username"
              required${invalid('email')}
            />
            ${fieldError('email')}
          </div>
          <div class="field">
            <label for="password">Password</label>
            <input
              id="password"
              type="password"
              name="password"
              autocomplete="new-password"
              required${invalid('password')}
            />
            <p class="muted">8 to 128 characters, not a common password.</p>
            ${fieldError('password')}
          </div>
          <div class="actions">
            <button type="submit" class="primary">Create account</button>
          </div>
        </form>
        <p><a href="${links.login(handle)}">I already have an account</a></p>`,
    },
    setCookies,
  );
  return pending ? { ...page, formActionOrigins: [pending.redirectOrigin] } : page;
}
