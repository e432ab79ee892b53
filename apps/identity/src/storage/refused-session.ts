import { InvalidCredentialsError } from '@authz/shared/errors';

// Raised by the trigger `sessions_refuse_disabled_user` (docs/admin-api.md #4).
const REFUSAL_MARK = 'account_unavailable';

/**
 * A session insert the trigger refused (the account was disabled or began its deletion after
 * the sign-in read it) becomes the uniform bad-credentials refusal; anything else is unchanged.
 */
export function refusedSessionAsBadCredentials(error: unknown): unknown {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause.message.includes(REFUSAL_MARK)) {
      return new InvalidCredentialsError({ detail: 'session refused: account disabled or deleting' });
    }
  }
  return error;
}
