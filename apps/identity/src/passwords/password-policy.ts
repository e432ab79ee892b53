/** docs/decisions.md #4: length bounds count code points after Unicode NFKC normalisation. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

/**
 * Why `password` is refused for an account with `email`, or undefined when it is acceptable
 * (docs/decisions.md #4): length, the shipped common-password list, and the email's local part.
 */
export function passwordProblem(
  password: string,
  email: string | undefined,
  commonPasswords: ReadonlySet<string>,
): string | undefined {
  const normalized = normalizePassword(password);
  const length = [...normalized].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    return `must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long`;
  }
  const lower = normalized.toLowerCase();
  if (commonPasswords.has(lower)) return 'is too common';
  const localPart = email?.slice(0, email.lastIndexOf('@')).normalize('NFKC').toLowerCase();
  if (localPart && lower === localPart) return 'must not be the local part of the email address';
  return undefined;
}
