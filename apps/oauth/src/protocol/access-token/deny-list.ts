/** Revoked access tokens, denied by jti for their remaining lifetime (interface.md 2.5). */
export interface AccessTokenDenyList {
  /** Denies `jti` until `expiresAt` (epoch seconds); false when it was already denied. */
  deny(jti: string, expiresAt: number): Promise<boolean>;
  isDenied(jti: string): Promise<boolean>;
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
