/** What the hosted pages need of the identity service (docs/decisions.md #6: consent-ui may call it). */

export interface RequestOrigin {
  ip: string;
  userAgent: string;
}

export interface SignInRequest {
  email: string;
  password: string;
  origin: RequestOrigin;
}

/** A browser session as the pages use it: who is signed in and the session's CSRF token. */
export interface SessionView {
  email: string;
  csrfToken: string;
  /** When the user last signed in, epoch seconds (OIDC auth_time). */
  authTime: number;
  userId: string;
  sessionId: string;
  emailVerified: boolean;
  /** The name the user set (interface.md 4.10), absent until set. */
  name?: string;
  /** RFC 8176 methods of the session's last real authentication (docs/strong-authentication.md #5). */
  amr: string[];
}

/** A session's cookie value, or the mfa_token of a second step still due (docs/strong-authentication.md #6). */
export type SignInResult = { sessionToken: string; mfaToken?: undefined } | { mfaToken: string };

export interface IdentityPort {
  /**
   * CheckCredentials with browser_session: opens a session and answers its cookie value, or
   * the mfa_token of the second step. InvalidCredentialsError, ValidationError or
   * RateLimitedError when refused.
   */
  signIn(request: SignInRequest): Promise<SignInResult>;
  /** GetBrowserSession: UnauthorizedError when the cookie value signs nobody in. */
  getBrowserSession(sessionToken: string): Promise<SessionView>;
}
