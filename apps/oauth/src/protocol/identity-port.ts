/** What the token logic needs from the identity service (DECISIONS.md #6), free of gRPC. */
export interface RequestOrigin {
  ip: string;
  userAgent: string;
}

export interface IdentityUser {
  id: string;
  email: string;
  emailVerified: boolean;
}

export interface CheckedCredentials {
  user: IdentityUser;
  sessionId: string;
  /** Epoch seconds (OIDC auth_time). */
  authTime: number;
}

export interface IdentityPort {
  /** Throws InvalidCredentialsError or RateLimitedError. */
  checkCredentials(input: {
    email: string;
    password: string;
    origin: RequestOrigin;
  }): Promise<CheckedCredentials>;
  /** Throws NotFoundError for an unknown user. */
  getUser(userId: string): Promise<IdentityUser>;
  endSession(input: { sessionId: string; userId: string; origin: RequestOrigin }): Promise<void>;
}
