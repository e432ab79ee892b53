/** RFC 6749 section 5.1 (spec 4.3 token response), before any wire encoding. */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  expiresIn: number;
  tokenType: 'Bearer';
  /** Present only when a scope was granted (DECISIONS.md #8). */
  scope?: string;
}
