import { InternalError, InvalidCsrfTokenError, toApiWire } from '@authz/shared/errors';
import { renderDocument, type DocumentParts } from '../../html/layout.js';
import type { Links } from './links.js';

export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

/** What a page answers (consentui.proto Page); the gateway adds the HTTP headers it owns. */
export interface PageResult {
  status: number;
  contentType: string;
  body: string;
  location?: string;
  setCookies: string[];
  /**
   * Origins the page's form submissions may be redirected to besides ours: browsers apply CSP
   * form-action to every redirect after a submission, so the gateway adds them to it.
   */
  formActionOrigins?: string[];
  /** The page loads our own scripts (consentui.proto Page.same_origin_scripts). */
  sameOriginScripts?: boolean;
  /**
   * What a sign-in attempt came to (consentui.proto RenderPageResponse). A session is never in
   * setCookies: the gateway builds its cookie from the token (docs/hosted-pages.md #2).
   */
  signIn?: SignInOutcome;
  /**
   * The browser's session ended here (a confirmed logout): the gateway clears the session
   * cookie with its own cookie code (consentui.proto SignedOut).
   */
  signedOut?: boolean;
}

export type SignInOutcome =
  | { kind: 'signed_in'; sessionToken: string }
  | { kind: 'failed'; reason: 'invalid_credentials' | 'rate_limited' };

/** The page that ends a sign-in: the browser session opened, the page going on from it. */
export function signedIn(page: PageResult, sessionToken: string): PageResult {
  return { ...page, signIn: { kind: 'signed_in', sessionToken } };
}

/** The page that ends a confirmed logout: the browser session is gone. */
export function signedOut(page: PageResult): PageResult {
  return { ...page, signedOut: true };
}

/** The page that answers a refused sign-in. */
export function signInFailed(
  page: PageResult,
  reason: Extract<SignInOutcome, { kind: 'failed' }>['reason'],
): PageResult {
  return { ...page, signIn: { kind: 'failed', reason } };
}

/** A complete HTML document (html/layout.ts) with the given status. */
export function documentPage(
  links: Pick<Links, 'styleSheet'>,
  status: number,
  parts: Omit<DocumentParts, 'styleSheetHref'>,
  setCookies: string[] = [],
): PageResult {
  const body = renderDocument({ ...parts, styleSheetHref: links.styleSheet() }).value;
  const scripts = parts.scripts !== undefined && parts.scripts.length > 0;
  return {
    status,
    contentType: HTML_CONTENT_TYPE,
    body,
    setCookies,
    ...(scripts ? { sameOriginScripts: true } : {}),
  };
}

/**
 * 302 after a GET, 303 after a POST (RFC 9110 section 15.4.4: the browser follows with a GET,
 * so reloading the next page never resubmits the form).
 */
export function redirectPage(status: 302 | 303, location: string, setCookies: string[] = []): PageResult {
  // A header value cannot carry control characters (RFC 9110 section 5.5).
  if (/\p{Cc}/u.test(location)) throw new InternalError({ detail: 'redirect target has control characters' });
  return { status, contentType: HTML_CONTENT_TYPE, body: '', location, setCookies };
}

/** docs/decisions.md #19: a form whose CSRF token does not check out gets exactly this JSON body. */
export function csrfRefusal(): PageResult {
  const body = JSON.stringify(toApiWire(new InvalidCsrfTokenError()));
  return { status: 400, contentType: 'application/json; charset=utf-8', body, setCookies: [] };
}
