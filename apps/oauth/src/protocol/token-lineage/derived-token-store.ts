/**
 * What a token's first subject belonged to (docs/tokens.md #30): the refresh-token family it
 * was issued in, the identity session and the consent. Any of them may be unknown (null).
 */
export interface TokenLineage {
  familyId: string | null;
  sessionId: string | null;
  consentId: string | null;
  /** The jti of the first, underived token of the chain. */
  rootJti: string;
}

/** A derived token to record: its own jti and expiry, and the lineage it inherits. */
export interface NewDerivedToken {
  jti: string;
  userId: string;
  /** Epoch seconds. */
  expiresAt: number;
  lineage: TokenLineage;
}

/**
 * Storage of derived tokens (docs/conventions.md #7). Revoking a family, a session's families
 * or a consent's families through RefreshTokenStore reports the live derived tokens of that
 * lineage with the family's own access tokens, so every revocation path denies them too.
 */
export interface DerivedTokenStore {
  /**
   * The lineage of an access token or ID-JAG of ours, by its jti: the recorded lineage of a
   * derived token; for a token issued with a refresh token or from a code, its family, session
   * and consent; undefined when the jti is recorded nowhere.
   */
  lineageOf(jti: string): Promise<TokenLineage | undefined>;
  /**
   * Records the token, only while its family and its consent are unrevoked: the check and the
   * insert hold those rows, so a concurrent revocation either sees the row or is seen here.
   * False when the lineage is revoked: the token must not be handed out.
   */
  record(token: NewDerivedToken): Promise<boolean>;
  /** The live tokens derived from the token `rootJti` (a reused code's access token). */
  liveDerivedFrom(rootJti: string, now: Date): Promise<{ jti: string; expiresAt: number }[]>;
}
