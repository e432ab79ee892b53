import { ValidationError } from '@authz/shared/errors';

export const PASSKEY_NAME_MAX_LENGTH = 64;

/** docs/strong-authentication.md #17: a passkey's name, trimmed, 1 to 64 characters, no control characters. */
export function passkeyName(raw: string, fallback?: string): string {
  const name = raw.trim() === '' && fallback !== undefined ? fallback : raw.trim();
  if (name === '') throw new ValidationError([{ path: 'name', message: 'is required' }]);
  if (name.length > PASSKEY_NAME_MAX_LENGTH || /\p{Cc}/u.test(name)) {
    throw new ValidationError([
      {
        path: 'name',
        message: `must be at most ${PASSKEY_NAME_MAX_LENGTH} characters, without control characters`,
      },
    ]);
  }
  return name;
}
