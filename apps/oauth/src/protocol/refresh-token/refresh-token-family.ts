import { keyedHash, randomHexToken } from '@authz/shared/crypto';
import type { MintedAccessToken } from '../access-token/access-token.js';
import { denyAll } from '../access-token/deny-list.js';
import type { NewRefreshToken, StoredRefreshToken } from './refresh-token-store.js';
import type { Registry } from '../../registry.js';

const REFRESH_TOKEN = /^[0-9a-f]{64}$/;

/** A new opaque refresh token (interface.md 2.5: 64 hex) and what is stored of it: its keyed hash. */
export function createRefreshToken(
  { config }: Pick<Registry, 'config'>,
  accessToken: MintedAccessToken,
  now: Date,
): { token: string; stored: NewRefreshToken } {
  const token = randomHexToken();
  return {
    token,
    stored: {
      tokenHash: keyedHash(config.secretHashKey, token),
      expiresAt: new Date(now.getTime() + config.refreshTokenTtlSeconds * 1000),
      accessTokenJti: accessToken.jti,
      accessTokenExpiresAt: new Date(accessToken.expiresAt * 1000),
    },
  };
}

/** The stored hash of a presented token, or undefined when it cannot be one of ours. */
export function hashPresentedRefreshToken(
  { config }: Pick<Registry, 'config'>,
  token: string,
): string | undefined {
  return REFRESH_TOKEN.test(token) ? keyedHash(config.secretHashKey, token) : undefined;
}

/** The stored token a presented refresh token stands for, in whatever state it is. */
export async function findPresentedRefreshToken(
  deps: Pick<Registry, 'config' | 'refreshTokens'>,
  token: string,
): Promise<StoredRefreshToken | undefined> {
  const tokenHash = hashPresentedRefreshToken(deps, token);
  return tokenHash === undefined ? undefined : deps.refreshTokens.findByHash(tokenHash);
}

/**
 * RFC 9700 section 4.14.2: revoking a family makes every refresh token of it unusable and
 * denies the access tokens issued in it that are still live.
 */
export async function revokeRefreshTokenFamily(
  { refreshTokens, denyList }: Pick<Registry, 'refreshTokens' | 'denyList'>,
  familyId: string,
  now = new Date(),
): Promise<void> {
  await denyAll(denyList, await refreshTokens.revokeFamily(familyId, now));
}

export async function revokeSessionRefreshTokens(
  { refreshTokens, denyList }: Pick<Registry, 'refreshTokens' | 'denyList'>,
  sessionId: string,
  now = new Date(),
): Promise<void> {
  await denyAll(denyList, await refreshTokens.revokeSessionFamilies(sessionId, now));
}
