/** RFC 6749 section 5.1 (interface.md 4.3 token response), before any wire encoding. */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  expiresIn: number;
  /** RFC 8693 section 2.2.1: N_A when the issued token is not an access token (an ID-JAG). */
  /** DPoP when bound to a proof's key (RFC 9449 section 5, docs/par-and-dpop.md #10). */
  tokenType: 'Bearer' | 'DPoP' | 'N_A';
  /** Present only when a scope was granted (docs/decisions.md #8). */
  scope?: string;
  /** RFC 8693 section 2.2.1: token exchange responses only (interface.md 4.3). */
  issuedTokenType?: string;
}
