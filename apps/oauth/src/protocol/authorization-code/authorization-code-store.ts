import type { LiveAccessToken } from '../access-token/deny-list.js';

/** An authorization code to store: only its keyed hash, and what its redemption needs. */
export interface NewAuthorizationCode {
  codeHash: string;
  clientId: string;
  userId: string;
  sessionId: string;
  consentId: string;
  /** As sent in the authorization request; '' when it was omitted. */
  redirectUri: string;
  codeChallenge: string;
  /** Space-separated; '' when no scope was granted. */
  scope: string;
  resources: string[];
  nonce?: string;
  /** RFC 9449 section 10: the dpop_jkt of the authorization request (docs/par-and-dpop.md #10). */
  dpopJkt?: string;
  /** Epoch seconds. */
  authTime: number;
  /** RFC 8176 methods of the session's authentication (docs/strong-authentication.md #5). */
  amr: string[];
  expiresAt: Date;
}

export interface StoredAuthorizationCode extends NewAuthorizationCode {
  id: string;
  redeemedAt: Date | null;
  /** Set when the consent the code was issued under has been revoked. */
  consentRevokedAt: Date | null;
}

/** What a redemption issued, revoked if the code is used again. */
export interface IssuedTokens {
  refreshFamilyId?: string;
  accessToken: LiveAccessToken;
}

/** Storage of authorization codes (docs/conventions.md #7; RFC 6749 section 4.1.2). */
export interface AuthorizationCodeStore {
  save(code: NewAuthorizationCode): Promise<void>;
  findByHash(codeHash: string): Promise<StoredAuthorizationCode | undefined>;
  /** Atomically marks the code redeemed, only if it is unredeemed and unexpired. */
  redeem(id: string, now: Date): Promise<boolean>;
  /**
   * Records what the redemption issued. Returns whether the code was meanwhile presented
   * again (marked reused): the caller must then revoke what it issued.
   */
  recordIssued(id: string, issued: IssuedTokens): Promise<{ reused: boolean }>;
  /**
   * Marks the code reused and returns what its redemption issued, or undefined when that is
   * not recorded yet (the redeeming request then sees the mark, docs/authorization.md #12).
   */
  markReused(id: string, now: Date): Promise<IssuedTokens | undefined>;
  /** The access tokens issued from codes of a consent that are still live. */
  liveAccessTokensOfConsent(consentId: string, now: Date): Promise<LiveAccessToken[]>;
  /** The access tokens issued from codes of an identity session that are still live. */
  liveAccessTokensOfSession(sessionId: string, now: Date): Promise<LiveAccessToken[]>;
  /** The clients that were issued a code in an identity session, each once. */
  clientsOfSession(sessionId: string): Promise<string[]>;
  /**
   * Stores a grant redeemed at once with what it issued: a device code's approval
   * (docs/device-grant.md #11), so the session, consent and account queries above find it.
   */
  saveRedeemed(code: NewAuthorizationCode, issued: IssuedTokens, now: Date): Promise<void>;
}
