import { keyedHash } from '@authz/shared/crypto';

/** What randomHexToken() issues: 32 random bytes as lowercase hex. */
const SESSION_TOKEN_PATTERN = /^[0-9a-f]{64}$/;

export function isSessionTokenShaped(value: string): boolean {
  return SESSION_TOKEN_PATTERN.test(value);
}

/** What the sessions table keeps instead of the cookie value (docs/identity.md #11). */
export function sessionTokenHash(secretHashKey: Buffer, sessionToken: string): string {
  return keyedHash(secretHashKey, sessionToken);
}

/**
 * The per-session CSRF token (interface.md 4.6 csrfToken, docs/decisions.md #17), docs/identity.md #12:
 * derived from the cookie value under SECRET_HASH_KEY, so it is stable for the session, never
 * stored, differs between sessions, and the stored hash alone cannot produce it. The `csrf:`
 * label keeps it apart from the stored hash.
 */
export function csrfTokenFor(secretHashKey: Buffer, sessionToken: string): string {
  return keyedHash(secretHashKey, `csrf:${sessionToken}`);
}
