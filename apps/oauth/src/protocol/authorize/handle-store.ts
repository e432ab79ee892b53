import type { LogoutDestination } from '../logout/logout-outcome.js';
import type { AuthorizationRequest } from './authorization-request.js';

/**
 * Short-lived state behind a random handle (interface.md 2.6: single use, 10 minutes). Only a keyed
 * hash of the handle is stored. Unknown, malformed and expired handles all read as undefined.
 */
export interface HandleStore<T> {
  /** Stores the value under a new handle (256 random bits, base64url) and returns the handle. */
  create(value: T): Promise<string>;
  /** Reads without consuming. */
  peek(handle: string): Promise<T | undefined>;
  /** Reads and deletes in one step: of concurrent takes exactly one gets the value. */
  take(handle: string): Promise<T | undefined>;
}

/** interface.md 2.6: a pending authorization lives 10 minutes; so does a consent prompt. */
export const HANDLE_TTL_SECONDS = 600;

/** An authorization waiting for the user to sign in (interface.md 3, GET /ui/resume/{handle}). */
export interface PendingAuthorization {
  request: AuthorizationRequest;
  /** Epoch seconds. */
  createdAt: number;
  /**
   * prompt=login or max_age: the session that resumes must have signed in at or after
   * `createdAt` (docs/authorization.md #7).
   */
  freshLoginRequired: boolean;
}

/** An authorization waiting for the user's decision on the consent screen. */
export interface ConsentPrompt {
  request: AuthorizationRequest;
  /** Bound to the browser session that saw it (docs/authorization.md #9). */
  userId: string;
  sessionId: string;
  /** Epoch seconds (OIDC auth_time of that session). */
  authTime: number;
  /** RFC 8176 methods of that session's authentication (docs/strong-authentication.md #5). */
  amr?: string[];
}

/** A logout waiting for the user's confirmation, bound to the browser session that saw it (interface.md 4.3). */
export interface LogoutPrompt extends LogoutDestination {
  sessionId: string;
  userId: string;
  clientName?: string;
}
