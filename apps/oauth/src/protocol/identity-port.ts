/** What the token logic needs from the identity service (docs/decisions.md #6), free of gRPC. */
export interface RequestOrigin {
  ip: string;
  userAgent: string;
}

export interface IdentityUser {
  id: string;
  email: string;
  emailVerified: boolean;
  /** OIDC Core 5.1 `name`, when the user set one (interface.md 2.5: not gated by scope). */
  name?: string;
}

/** A verified email attribute and where it came from: wallet, oidc_<provider> or self_reported. */
export interface VerifiedEmail {
  email: string;
  source: string;
}

/** The current user record with its verified email attributes (UserInfo, interface.md 4.3). */
export interface IdentityUserProfile extends IdentityUser {
  verifiedEmails: VerifiedEmail[];
}

export interface CheckedCredentials {
  user: IdentityUser;
  sessionId: string;
  /** Epoch seconds (OIDC auth_time). */
  authTime: number;
  /** RFC 8176 methods of the authentication (docs/strong-authentication.md #5). */
  amr: string[];
}

/** The password was right and the account has a second factor (docs/strong-authentication.md #6). */
export interface SecondStepRequired {
  mfaToken: string;
}

/** The browser session behind a __Host-service_session cookie value (interface.md 4.5, 5). */
export interface BrowserSession {
  sessionId: string;
  user: IdentityUser;
  /** Epoch seconds (OIDC auth_time). */
  authTime: number;
  /** The per-session CSRF token (docs/decisions.md #17). */
  csrfToken: string;
  /** RFC 8176 methods of the session's last real authentication (docs/strong-authentication.md #5). */
  amr: string[];
}

export interface IdentityPort {
  /** Throws InvalidCredentialsError or RateLimitedError. */
  checkCredentials(input: {
    email: string;
    password: string;
    origin: RequestOrigin;
  }): Promise<CheckedCredentials | SecondStepRequired>;
  /** The second step: InvalidCodeError, InvalidTokenError, RateLimitedError or ValidationError. */
  completeSecondFactor(input: {
    mfaToken: string;
    code: string;
    origin: RequestOrigin;
  }): Promise<CheckedCredentials>;
  /** Throws NotFoundError for an unknown user. */
  getUser(userId: string): Promise<IdentityUserProfile>;
  endSession(input: { sessionId: string; userId: string; origin: RequestOrigin }): Promise<void>;
  /** Throws UnauthorizedError when the value is unknown, malformed, expired or the session ended. */
  getBrowserSession(sessionToken: string): Promise<BrowserSession>;
}
