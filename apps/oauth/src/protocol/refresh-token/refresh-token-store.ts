import type { LiveAccessToken } from '../access-token/deny-list.js';

export interface RefreshTokenFamily {
  id: string;
  userId: string;
  clientId: string;
  sessionId: string | null;
  /** Space-separated; '' when no scope was granted. */
  scope: string;
  /** RFC 8707 resources it was authorized for; empty for the client's audience. */
  resources: string[];
  /** The consent a code redemption issued it under; null for first-party login. */
  consentId: string | null;
  /** RFC 8176 methods of the authentication the family began with (docs/strong-authentication.md #13). */
  amr?: string[];
  /** Epoch seconds of that authentication; null when unknown (families older than the column). */
  authTime?: number | null;
  /** When the family, or the consent it was issued under, was revoked. */
  revokedAt: Date | null;
  /** RFC 9449 section 5: the DPoP key a public client's family is bound to (docs/par-and-dpop.md #10). */
  dpopJkt?: string | null;
}

export interface StoredRefreshToken {
  familyId: string;
  /** When this token (not its family) was issued: its introspection `iat`. */
  issuedAt: Date;
  expiresAt: Date;
  rotatedAt: Date | null;
  family: RefreshTokenFamily;
}

/** A refresh token to store: only its keyed hash, plus the access token issued with it. */
export interface NewRefreshToken {
  tokenHash: string;
  expiresAt: Date;
  accessTokenJti: string;
  accessTokenExpiresAt: Date;
}

/** Storage of refresh-token families (docs/conventions.md #7; RFC 9700 section 4.14.2). */
export interface RefreshTokenStore {
  openFamily(family: Omit<RefreshTokenFamily, 'id' | 'revokedAt'>, first: NewRefreshToken): Promise<string>;
  findByHash(tokenHash: string): Promise<StoredRefreshToken | undefined>;
  /**
   * Atomically marks `tokenHash` rotated, only if it is unrotated, unexpired and its family
   * and consent unrevoked, and adds `next` to the family. False when it was not (another
   * request won).
   */
  rotate(tokenHash: string, next: NewRefreshToken, now: Date): Promise<boolean>;
  /** Revokes the family; returns the access tokens issued in it that are still live. */
  revokeFamily(familyId: string, now: Date): Promise<LiveAccessToken[]>;
  /** Revokes every family of an identity session (logout). */
  revokeSessionFamilies(sessionId: string, now: Date): Promise<LiveAccessToken[]>;
  /**
   * Revokes every family of a user except those of `exceptSessionId` (password reset and
   * change, docs/tokens.md #31); the count of families it revoked and their live access tokens.
   */
  revokeUserFamilies(
    userId: string,
    exceptSessionId: string | undefined,
    now: Date,
  ): Promise<{ revoked: number; live: LiveAccessToken[] }>;
  /** Revokes every family issued under a consent (consent revocation). */
  revokeConsentFamilies(consentId: string, now: Date): Promise<LiveAccessToken[]>;
}
