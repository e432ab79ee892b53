import type { RequestOrigin } from '../sign-in/identity-port.js';

export interface PasskeyView {
  id: string;
  name: string;
  /** Epoch milliseconds. */
  createdAt: number;
  lastUsedAt: number | undefined;
}

export interface SecondFactors {
  totp: boolean;
  recoveryCodesLeft: number;
  passkeys: PasskeyView[];
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
  /** WebAuthn creation options (JSON) for the user (docs/strong-authentication.md #16). */
  passkeyRegistrationOptions(userId: string): Promise<string>;
  /** InvalidCodeError when the new credential does not verify; ValidationError for a bad name. */
  registerPasskey(input: {
    userId: string;
    responseJson: string;
    name: string;
    origin: RequestOrigin;
  }): Promise<void>;
  /** WebAuthn request options (JSON) of a discoverable sign-in. */
  passkeySignInOptions(): Promise<string>;
  /** The session cookie value; InvalidCredentialsError for every refusal. */
  signInWithPasskey(input: { responseJson: string; origin: RequestOrigin }): Promise<string>;
  /** WebAuthn request options (JSON) for stepping up this session with the user's passkeys (#21). */
  passkeyStepUpOptions(sessionToken: string): Promise<string>;
  /** Steps the session up; InvalidCodeError for every refusal, RateLimitedError past the budget. */
  stepUpWithPasskey(input: {
    sessionToken: string;
    responseJson: string;
    origin: RequestOrigin;
  }): Promise<void>;
  renamePasskey(input: {
    userId: string;
    passkeyId: string;
    name: string;
    origin: RequestOrigin;
  }): Promise<void>;
  removePasskey(input: { userId: string; passkeyId: string; origin: RequestOrigin }): Promise<void>;
}
