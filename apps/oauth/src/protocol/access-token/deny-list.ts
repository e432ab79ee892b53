/** Revoked access tokens, denied by jti for their remaining lifetime (interface.md 2.5). */
export interface AccessTokenDenyList {
  /** Denies `jti` until `expiresAt` (epoch seconds); false when it was already denied. */
  deny(jti: string, expiresAt: number): Promise<boolean>;
  isDenied(jti: string): Promise<boolean>;
  /**
   * Denies every access token of `sub` issued before `cutOff.notBefore` except those of
   * `cutOff.exceptSessionId`, for `ttlSeconds` (docs/tokens.md #31). A later cut-off replaces it.
   */
  cutOffUser(sub: string, cutOff: UserCutOff, ttlSeconds: number): Promise<void>;
  /** The user's cut-off, if one is in force. */
  userCutOff(sub: string): Promise<UserCutOff | undefined>;
  /** `isDenied(jti)` and `userCutOff(sub)` in one read: what every token check asks. */
  standing(jti: string, sub: string): Promise<{ denied: boolean; cutOff: UserCutOff | undefined }>;
}

export interface UserCutOff {
  /** Epoch seconds: tokens whose `iat` is earlier are denied. */
  notBefore: number;
  /** The session whose tokens are spared (change-password keeps the calling session). */
  exceptSessionId?: string;
}

/** Whether a token with these claims falls under the cut-off. */
export function isCutOff(cutOff: UserCutOff | undefined, iat: number, sid: string | undefined): boolean {
  if (!cutOff || iat >= cutOff.notBefore) return false;
  return cutOff.exceptSessionId === undefined || cutOff.exceptSessionId !== sid;
}

export interface LiveAccessToken {
  jti: string;
  /** Epoch seconds. */
  expiresAt: number;
}

export async function denyAll(
  denyList: AccessTokenDenyList,
  tokens: readonly LiveAccessToken[],
): Promise<void> {
  await Promise.all(tokens.map(({ jti, expiresAt }) => denyList.deny(jti, expiresAt)));
}
