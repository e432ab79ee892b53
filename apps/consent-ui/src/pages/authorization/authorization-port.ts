import type { RequestOrigin } from '../sign-in/identity-port.js';

/** What the hosted pages need of the oauth service's AuthorizationService (docs/decisions.md #6). */

/** Where the browser goes next: a redirect, or an error page that must not redirect. */
export type AuthorizationOutcome =
  { kind: 'redirect'; location: string } | { kind: 'error-page'; error: string; description: string };

export interface PendingAuthorization {
  clientName: string;
  /** OIDC prompt=login or an exceeded max_age. */
  loginRequired: boolean;
  /** The origin of the client's redirect URI, where the sign-in may end. */
  redirectOrigin: string;
  /** acr_values asked for a class the session must reach first (docs/strong-authentication.md #14). */
  acrRequired?: string;
}

export interface ConsentPrompt {
  clientName: string;
  scopes: string[];
  /** The scopes of `scopes` the user has not granted this client before. */
  newScopes: string[];
  /** The origin of the client's redirect URI, where the decision ends. */
  redirectOrigin: string;
  /** The client's identifier: for a CIMD client, the URL of its metadata document. */
  clientId: string;
  /** pre_registered, dynamic or cimd; anything but pre_registered is unverified (docs/hosted-pages.md #24). */
  clientSource: string;
  /** The RFC 8707 resources the access will be for; empty when none was named. */
  resources: string[];
}

/** interface.md 4.3: where a logout goes on; `clearSessionCookie` when the browser's session ended. */
export type LogoutOutcome = AuthorizationOutcome & { clearSessionCookie: boolean };

/** A logout waiting for the user's confirmation. */
export interface LogoutPrompt {
  /** The client that asked; '' when none was named. */
  clientName: string;
  /** The origin of the post-logout redirect URI; '' when none was given. */
  redirectOrigin: string;
}

/** Every call answers NotFoundError for an unknown, used or expired handle (or another user's). */
export interface AuthorizationPort {
  getPendingAuthorization(handle: string): Promise<PendingAuthorization>;
  resumeAuthorization(request: {
    handle: string;
    sessionToken: string | undefined;
    origin: RequestOrigin;
  }): Promise<AuthorizationOutcome>;
  getConsentPrompt(request: { handle: string; sessionToken: string }): Promise<ConsentPrompt>;
  decideConsent(request: {
    handle: string;
    sessionToken: string;
    allow: boolean;
    origin: RequestOrigin;
  }): Promise<AuthorizationOutcome>;
  getLogoutPrompt(request: { handle: string; sessionToken: string }): Promise<LogoutPrompt>;
  confirmLogout(request: {
    handle: string;
    sessionToken: string;
    origin: RequestOrigin;
  }): Promise<LogoutOutcome>;
}
