/** A client that passed spec 5 authentication: what grants and later endpoints decide on. */
export interface AuthenticatedClient {
  /** The clients service's record id; empty for the first-party client and CIMD clients. */
  id: string;
  clientId: string;
  name: string;
  /** pre_registered, dynamic or cimd (spec 5 resolution order); first_party for DECISIONS.md #2. */
  source: string;
  /** The token_endpoint_auth_method it authenticated with (spec 2.2). */
  method: string;
  /** Set when a development API key stood in for the secret (DECISIONS.md #15). */
  apiKeyId?: string;
  grantTypes: readonly string[];
  /** The scope allow-list: deny-by-default (spec 5, DECISIONS.md #8). */
  scopes: readonly string[];
  /** The registered audience list, empty when none (DECISIONS.md #9 depends on which). */
  audienceList: readonly string[];
  /** The aud of its tokens when no resource is named (spec 2.5). */
  audience: string | string[];
  isAgent: boolean;
  agentScopeModes: readonly string[];
  redirectUris: readonly string[];
  requirePkce: boolean;
}

// Spec 2.5: more than one entry gives an array, exactly one that string, none the client id.
export function resolveAudience(audienceList: readonly string[], clientId: string): string | string[] {
  if (audienceList.length > 1) return [...audienceList];
  return audienceList[0] ?? clientId;
}
