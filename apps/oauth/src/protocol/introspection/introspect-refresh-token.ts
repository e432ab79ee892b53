import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { IntrospectedToken } from './introspection-result.js';
import { findPresentedRefreshToken } from '../refresh-token/refresh-token-family.js';
import type { StoredRefreshToken } from '../refresh-token/refresh-token-store.js';
import type { Registry } from '../../registry.js';

type Deps = Pick<Registry, 'config' | 'refreshTokens'>;

/**
 * RFC 7662 section 2.2 for our refresh tokens (docs/tokens.md #23): found by its hash, not
 * rotated, its family not revoked, unexpired, and asked about by the client it was issued to
 * (a refresh token has no other audience, RFC 6749 section 6). Undefined otherwise.
 */
export async function introspectRefreshToken(
  deps: Deps,
  token: string,
  caller: AuthenticatedClient,
  now = new Date(),
): Promise<IntrospectedToken | undefined> {
  const stored = await findPresentedRefreshToken(deps, token);
  if (!stored || !isUsable(stored, now) || stored.family.clientId !== caller.clientId) return undefined;
  const { family } = stored;
  return {
    sub: family.userId,
    clientId: family.clientId,
    ...(family.scope ? { scope: family.scope } : {}),
    aud: family.clientId,
    iss: deps.config.issuer,
    exp: epochSeconds(stored.expiresAt),
    iat: epochSeconds(stored.issuedAt),
    tokenType: 'refresh_token',
  };
}

// The same conditions the refresh_token grant's rotation requires (docs/tokens.md #10).
function isUsable(stored: StoredRefreshToken, now: Date): boolean {
  return !stored.rotatedAt && !stored.family.revokedAt && stored.expiresAt > now;
}

function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
