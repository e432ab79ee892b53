import type { RequestOrigin } from '../sign-in/identity-port.js';

export interface SecondFactors {
  totp: boolean;
  recoveryCodesLeft: number;
}

/**
 * What the hosted pages need of identity's second factors (docs/strong-authentication.md), free
 * of gRPC. Errors arrive as identity threw them: InvalidCodeError, InvalidTokenError,
 * InvalidCredentialsError, ConflictError, RateLimitedError, ValidationError.
 */
export interface SecondFactorPort {
  /** CompleteSecondFactor of a hosted sign-in: the session cookie value. */
  completeSignIn(input: { mfaToken: string; code: string; origin: RequestOrigin }): Promise<string>;
  /** StepUpSession: the signed-in session proves its second factor. */
  stepUp(input: { sessionToken: string; code: string; origin: RequestOrigin }): Promise<void>;
  factors(userId: string): Promise<SecondFactors>;
  beginTotp(input: {
    userId: string;
    password: string;
    origin: RequestOrigin;
  }): Promise<{ secret: string; otpauthUri: string }>;
  confirmTotp(input: { userId: string; code: string; origin: RequestOrigin }): Promise<string[]>;
  removeTotp(input: { userId: string; password: string; origin: RequestOrigin }): Promise<void>;
}
