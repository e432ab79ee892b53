import { HOSTED_PAGE_PATHS } from '@authz/shared/protocol';

/** Where the stylesheet is served (docs/hosted-pages.md #9). */
export const STYLE_SHEET_PATH = '/ui/assets/style.css';

/**
 * Links and redirects between the hosted pages. They are paths under the issuer's own path
 * (JWT_ISSUER may carry one behind an ingress), never absolute: the browser is already on the
 * issuer's origin, which is also what CSP form-action 'self' allows.
 */
export interface Links {
  /** The sign-in page, continuing the pending authorization `handle` when given. */
  login(handle?: string): string;
  resume(handle: string): string;
  consent(): string;
  /** interface.md 4.3: the logout confirmation's form target. */
  logout(): string;
  styleSheet(): string;
}

export function hostedLinks(issuer: string, styleSheetVersion: string): Links {
  const base = new URL(issuer).pathname.replace(/\/+$/, '');
  return {
    login: (handle) =>
      handle === undefined
        ? `${base}${HOSTED_PAGE_PATHS.login}`
        : `${base}${HOSTED_PAGE_PATHS.login}?handle=${encodeURIComponent(handle)}`,
    resume: (handle) => `${base}${HOSTED_PAGE_PATHS.resume}/${encodeURIComponent(handle)}`,
    consent: () => `${base}${HOSTED_PAGE_PATHS.consent}`,
    logout: () => `${base}${HOSTED_PAGE_PATHS.logout}`,
    styleSheet: () => `${base}${STYLE_SHEET_PATH}?v=${styleSheetVersion}`,
  };
}
