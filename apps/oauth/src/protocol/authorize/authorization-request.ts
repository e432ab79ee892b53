/** OIDC Core 3.1.2.1 prompt values this server supports (docs/authorization.md #6). */
export type Prompt = 'none' | 'login' | 'consent';

/**
 * An authorization request that passed every check of /oauth/authorize (RFC 6749 section
 * 4.1.1, OIDC Core 3.1.2.1): what the pending authorization, the consent prompt and the code
 * carry on.
 */
export interface AuthorizationRequest {
  clientId: string;
  /** For the consent screen and the consents list. */
  clientName: string;
  /**
   * How the client came to be (interface.md 5): the consent screen marks all but
   * pre_registered unverified (docs/hosted-pages.md #24). Absent in requests stored before it
   * was kept, which count as unverified.
   */
  clientSource?: string;
  /** Where the browser goes back: the redirect_uri sent, or the client's only one. */
  redirectUri: string;
  /** The token request must repeat a redirect_uri that was sent (RFC 6749 section 4.1.3). */
  redirectUriSent: boolean;
  scope: string[];
  /** RFC 8707 resource indicators, distinct, in order. */
  resources: string[];
  /** RFC 7636 S256 code_challenge. */
  codeChallenge: string;
  prompt: Prompt[];
  /** OIDC max_age in seconds. */
  maxAge?: number;
  /** The acr the session must reach, from acr_values (docs/strong-authentication.md #14). */
  acrRequired?: string;
  state?: string;
  nonce?: string;
  /** RFC 9449 section 10: the DPoP key the code will be bound to (docs/par-and-dpop.md #10). */
  dpopJkt?: string;
}
