import type { SigningAlg } from '../../keys/signing-key-store.js';
/** A client that passed interface.md 5 authentication: what grants and later endpoints decide on. */
export interface AuthenticatedClient {
  /** The clients service's record id; empty for the first-party client and CIMD clients. */
  id: string;
  clientId: string;
  name: string;
  /** pre_registered, dynamic or cimd (interface.md 5 resolution order); first_party for docs/decisions.md #2. */
  source: string;
  /** The token_endpoint_auth_method it authenticated with (interface.md 2.2). */
  method: string;
  /** Set when a development API key stood in for the secret (docs/decisions.md #15). */
  apiKeyId?: string;
  grantTypes: readonly string[];
  /** The scope allow-list: deny-by-default (interface.md 5, docs/decisions.md #8). */
  scopes: readonly string[];
  /** The registered audience list, empty when none (docs/decisions.md #9 depends on which). */
  audienceList: readonly string[];
  /** The aud of its tokens when no resource is named (interface.md 2.5). */
  audience: string | string[];
  isAgent: boolean;
  agentScopeModes: readonly string[];
  redirectUris: readonly string[];
  requirePkce: boolean;
  /** interface.md 4.3: where RP-initiated logout may redirect (exact strings). */
  postLogoutRedirectUris: readonly string[];
  /** interface.md 4.3: where logout tokens are POSTed (OIDC Back-Channel Logout 1.0 section 2.2). */
  backchannelLogoutUri?: string;
  backchannelLogoutSessionRequired: boolean;
  /** id_token_signed_response_alg (OIDC Dynamic Registration 2): EdDSA or RS256 (docs/tokens.md #34). */
  idTokenSignedResponseAlg: SigningAlg;
  /** RFC 9126 section 6: authorization requests only through PAR (docs/par-and-dpop.md #4). */
  requirePushedAuthorizationRequests: boolean;
  /** RFC 9449 section 5.2: every token request carries a DPoP proof (docs/par-and-dpop.md #11). */
  dpopBoundAccessTokens: boolean;
}

// interface.md 2.5: more than one entry gives an array, exactly one that string, none the client id.
export function resolveAudience(audienceList: readonly string[], clientId: string): string | string[] {
  if (audienceList.length > 1) return [...audienceList];
  return audienceList[0] ?? clientId;
}
