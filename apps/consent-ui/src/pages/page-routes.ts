import { normalizeError, RateLimitedError, ValidationError } from '@authz/shared/errors';
import type { Logger } from '@authz/shared/logger';
import { HOSTED_PAGE_PATHS } from '@authz/shared/protocol';
import { showConsentPage, submitConsent } from './consent/consent-page.js';
import { STYLE_SHEET_PATH } from './shared/links.js';
import { showLoginPage, submitLogin } from './sign-in/login-page.js';
import type { PageRequest } from './shared/page-request.js';
import type { PageResult } from './shared/page-result.js';
import type { Registry } from '../registry.js';
import type { Route } from './route.js';
import { resumeAuthorization } from './authorization/resume-page.js';
import { showStyleSheet } from './shared/style-sheet-page.js';
import { showLogoutPage, submitLogout } from './sign-out/logout-page.js';
import { showSignedOutPage } from './sign-out/signed-out-page.js';
import { WALLET_ROUTES } from './wallet/wallet-routes.js';
import { RECOVERY_ROUTES } from './account-recovery/recovery-routes.js';
import { ACCOUNT_ROUTES } from './account/account-routes.js';
import { DEVICE_ROUTES } from './device/device-routes.js';
import { FEDERATION_ROUTES } from './federation/federation-routes.js';
import { STRONG_AUTH_ROUTES } from './strong-auth/strong-auth-routes.js';
import {
  badRequestPage,
  methodNotAllowedPage,
  notFoundPage,
  serverErrorPage,
  tooManyAttemptsPage,
} from './status/status-pages.js';

/** interface.md 4.5, interface.md 4.3 (logout). The wallet screens answer 404 while wallet federation is off (docs/decisions.md #25). */
const ROUTES: readonly Route[] = [
  { path: HOSTED_PAGE_PATHS.login, methods: { GET: showLoginPage, POST: submitLogin } },
  { path: HOSTED_PAGE_PATHS.consent, methods: { GET: showConsentPage, POST: submitConsent } },
  { path: HOSTED_PAGE_PATHS.resume, takesSegment: true, methods: { GET: resumeAuthorization } },
  { path: HOSTED_PAGE_PATHS.logout, methods: { GET: showLogoutPage, POST: submitLogout } },
  { path: HOSTED_PAGE_PATHS.signedOut, methods: { GET: showSignedOutPage } },
  { path: STYLE_SHEET_PATH, methods: { GET: showStyleSheet } },
  ...WALLET_ROUTES,
  ...RECOVERY_ROUTES,
  ...ACCOUNT_ROUTES,
  ...DEVICE_ROUTES,
  ...FEDERATION_ROUTES,
  ...STRONG_AUTH_ROUTES,
];

/**
 * Routes one /ui/* request to its page. An unknown path is the 404 page, a known one asked with
 * another method the 405 page; a failure no page expects is the 500 page, logged, never shown.
 */
export async function renderPage(deps: Registry, request: PageRequest, log: Logger): Promise<PageResult> {
  const found = findRoute(request.path);
  if (!found) return notFoundPage(deps);
  const { methods, exists } = found.route;
  try {
    if (exists && !(await exists(deps))) return notFoundPage(deps);
    const method = request.method.toUpperCase();
    const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
    if (!handler) return methodNotAllowedPage(deps, Object.keys(methods));
    return await handler(deps, request, found.segment);
  } catch (error) {
    return failurePage(deps, error, log);
  }
}

function findRoute(path: string): { route: Route; segment?: string } | undefined {
  for (const route of ROUTES) {
    if (!route.takesSegment) {
      if (path === route.path) return { route };
      continue;
    }
    const prefix = `${route.path}/`;
    const suffix = route.segmentSuffix ?? '';
    const rest =
      path.startsWith(prefix) && path.endsWith(suffix)
        ? path.slice(prefix.length, path.length - suffix.length)
        : undefined;
    if (rest !== undefined && rest !== '' && !rest.includes('/')) {
      return { route, ...optionalSegment(decodeSegment(rest)) };
    }
  }
  return undefined;
}

/** The gateway passes the path still percent-encoded; an undecodable segment matches no handle. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function optionalSegment(segment: string | undefined): { segment?: string } {
  return segment === undefined ? {} : { segment };
}

function failurePage(deps: Registry, error: unknown, log: Logger): PageResult {
  // A repeated field, or an upstream refusing what the browser sent.
  if (error instanceof ValidationError) return badRequestPage(deps);
  if (error instanceof RateLimitedError) return tooManyAttemptsPage(deps);
  const failure = normalizeError(error);
  log.error({ err: error, code: failure.code, detail: failure.detail }, 'hosted page failed');
  return serverErrorPage(deps);
}
