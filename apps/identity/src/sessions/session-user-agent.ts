import type { RequestOrigin } from '@authz/proto/identity/v1/identity';

/** Longer User-Agent values are cut: the list shows them, nothing parses them. */
export const MAX_USER_AGENT_LENGTH = 512;

/**
 * The User-Agent a session keeps for the session list (interface.md 4.10 GET /auth/sessions): the
 * sign-in request's, at most MAX_USER_AGENT_LENGTH characters; null when none was sent.
 * PostgreSQL text cannot hold U+0000, which no valid header carries anyway.
 */
export function sessionUserAgent(origin: RequestOrigin | undefined): string | null {
  const value = origin?.userAgent.trim() ?? '';
  if (value === '' || value.includes('\u0000')) return null;
  return Array.from(value).slice(0, MAX_USER_AGENT_LENGTH).join('');
}
