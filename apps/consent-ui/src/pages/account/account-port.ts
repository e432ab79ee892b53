import type { RequestOrigin } from '../sign-in/identity-port.js';

/** One live session of the user as the account page lists it (interface.md 4.10). */
export interface AccountSession {
  id: string;
  /** Epoch milliseconds. */
  createdAt: number;
  lastSeenAt: number;
  userAgent: string | undefined;
}

/**
 * What the sign-up and account pages need of identity (AccountService, Register) and oauth
 * (AccountLifecycleService), free of gRPC (docs/decisions.md #6: consent-ui may call both).
 */
export interface AccountPort {
  /** POST /auth/register's rules: ValidationError, ConflictError or RateLimitedError when refused. */
  register(input: { email: string; password: string; origin: RequestOrigin }): Promise<void>;
  listSessions(userId: string, currentSessionId: string): Promise<AccountSession[]>;
  /** Sets the name, or clears it with null; ValidationError for a bad one. */
  updateName(input: { userId: string; name: string | null; origin: RequestOrigin }): Promise<void>;
  /** Ends a live session of the user with what was issued in it; NotFoundError otherwise. */
  endSession(input: { userId: string; sessionId: string; origin: RequestOrigin }): Promise<void>;
  /** InvalidCredentialsError for a wrong password, ValidationError for none. */
  deleteAccount(input: { userId: string; password: string; origin: RequestOrigin }): Promise<void>;
}
