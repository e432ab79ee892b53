import type { RequestOrigin } from '../sign-in/identity-port.js';

/** The signed-in account behind a browser session, as the account pages need it. */
export interface SignedInAccount {
  userId: string;
  sessionId: string;
  email: string;
  csrfToken: string;
}

/**
 * What the account-recovery pages need of identity and oauth (interface.md 4.10;
 * docs/decisions.md #6: consent-ui may call both). Failures are the services' AppErrors.
 */
export interface AccountRecoveryPort {
  requestPasswordReset(email: string, origin: RequestOrigin): Promise<void>;
  /** Resets the password, then ends every token of the account (docs/tokens.md #31). */
  resetPassword(token: string, password: string, origin: RequestOrigin): Promise<void>;
  /** Changes the password, then ends every token but the session's own. */
  changePassword(
    account: SignedInAccount,
    currentPassword: string,
    newPassword: string,
    origin: RequestOrigin,
  ): Promise<void>;
  requestEmailChange(
    account: SignedInAccount,
    newEmail: string,
    password: string,
    origin: RequestOrigin,
  ): Promise<void>;
  /** A sign-up verification or an email-change confirmation; answers the address verified. */
  verifyEmail(token: string, origin: RequestOrigin): Promise<string>;
  /** UnauthorizedError when the cookie value signs nobody in. */
  signedInAccount(sessionToken: string): Promise<SignedInAccount>;
}
