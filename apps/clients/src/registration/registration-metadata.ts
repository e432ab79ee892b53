import { InvalidClientMetadataError, InvalidRedirectUriError } from '@authz/shared/errors';
import { GRANT_TYPES } from '../clients/validate-client.js';

/** RFC 8693: dynamically registered agents may hold it (docs/decisions.md #12). */
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const DYNAMIC_GRANT_TYPES: readonly string[] = [...GRANT_TYPES, TOKEN_EXCHANGE_GRANT];
/** RFC 7523 section 2.1: redeems ID-JAGs, registrable while ENTERPRISE_ASSERTION_ENABLED is on. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** RFC 7591 section 2 client metadata as received, types checked, defaults not yet applied. */
export interface RegistrationMetadata {
  redirectUris?: string[];
  tokenEndpointAuthMethod?: string;
  grantTypes?: string[];
  responseTypes?: string[];
  clientName?: string;
  /** The space-separated `scope`, split. */
  scopes?: string[];
  jwks?: object;
  jwksUri?: string;
  isAgent?: boolean;
  /** The space-separated `agent_scope_modes` (interface.md 2.2 cap, docs/clients.md #19), split. */
  agentScopeModes?: string[];
  /** OIDC RP-Initiated Logout 1.0 section 3.1. */
  postLogoutRedirectUris?: string[];
  /** OIDC Back-Channel Logout 1.0 section 2.2. */
  backchannelLogoutUri?: string;
  backchannelLogoutSessionRequired?: boolean;
  /** OIDC Dynamic Registration 1.0 section 2 (docs/tokens.md #34). */
  idTokenSignedResponseAlg?: string;
  /** RFC 9126 section 6. */
  requirePushedAuthorizationRequests?: boolean;
  /** RFC 9449 section 5.2. */
  dpopBoundAccessTokens?: boolean;
}

type Json = Record<string, unknown>;

/** RFC 7591 section 2: reads the members we know; unknown members are ignored. */
export function parseRegistrationMetadata(text: string): RegistrationMetadata {
  const body = parseObject(text);
  const metadata: RegistrationMetadata = {};
  const redirectUris = stringList(body, 'redirect_uris');
  if (redirectUris) metadata.redirectUris = redirectUris;
  const method = stringMember(body, 'token_endpoint_auth_method');
  if (method !== undefined) metadata.tokenEndpointAuthMethod = method;
  const grantTypes = stringList(body, 'grant_types');
  if (grantTypes) metadata.grantTypes = grantTypes;
  const responseTypes = stringList(body, 'response_types');
  if (responseTypes) metadata.responseTypes = responseTypes;
  const clientName = stringMember(body, 'client_name');
  if (clientName !== undefined) metadata.clientName = clientName;
  const scope = stringMember(body, 'scope');
  if (scope !== undefined) metadata.scopes = scope.split(' ').filter(Boolean);
  const jwksUri = stringMember(body, 'jwks_uri');
  if (jwksUri !== undefined) metadata.jwksUri = jwksUri;
  if (body.jwks !== undefined) {
    if (!isObject(body.jwks)) throw invalid('jwks must be a JSON object');
    metadata.jwks = body.jwks;
  }
  if (body.is_agent !== undefined) {
    if (typeof body.is_agent !== 'boolean') throw invalid('is_agent must be a boolean');
    metadata.isAgent = body.is_agent;
  }
  const modes = stringMember(body, 'agent_scope_modes');
  if (modes !== undefined) metadata.agentScopeModes = modes.split(' ').filter(Boolean);
  readLogoutMetadata(body, metadata);
  const idTokenAlg = stringMember(body, 'id_token_signed_response_alg');
  if (idTokenAlg !== undefined) metadata.idTokenSignedResponseAlg = idTokenAlg;
  const requirePar = booleanMember(body, 'require_pushed_authorization_requests');
  if (requirePar !== undefined) metadata.requirePushedAuthorizationRequests = requirePar;
  const dpopBound = booleanMember(body, 'dpop_bound_access_tokens');
  if (dpopBound !== undefined) metadata.dpopBoundAccessTokens = dpopBound;
  return metadata;
}

function booleanMember(body: Json, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalid(`${name} must be a boolean`);
  return value;
}

// interface.md 4.3: the logout members of OIDC RP-Initiated and Back-Channel Logout 1.0.
function readLogoutMetadata(body: Json, metadata: RegistrationMetadata): void {
  const postLogout = stringList(body, 'post_logout_redirect_uris');
  if (postLogout) metadata.postLogoutRedirectUris = postLogout;
  const backchannel = stringMember(body, 'backchannel_logout_uri');
  if (backchannel !== undefined) metadata.backchannelLogoutUri = backchannel;
  const sessionRequired = body.backchannel_logout_session_required;
  if (sessionRequired !== undefined) {
    if (typeof sessionRequired !== 'boolean') {
      throw invalid('backchannel_logout_session_required must be a boolean');
    }
    metadata.backchannelLogoutSessionRequired = sessionRequired;
  }
}

function parseObject(text: string): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('the request body must be a JSON object');
  }
  if (!isObject(parsed)) throw invalid('the request body must be a JSON object');
  return parsed;
}

function stringMember(body: Json, name: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  return value;
}

function stringList(body: Json, name: string): string[] | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    const message = `${name} must be an array of strings`;
    throw name === 'redirect_uris' ? new InvalidRedirectUriError({ message }) : invalid(message);
  }
  return value as string[];
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(message: string): InvalidClientMetadataError {
  return new InvalidClientMetadataError({ message });
}

// RFC 7591 section 2 lets the server replace requested values: outside the cap is dropped;
// no scope at all registers the whole cap.
export function cappedScopes(requested: readonly string[] | undefined, cap: readonly string[]): string[] {
  if (requested === undefined) return [...cap];
  return [...new Set(requested)].filter((scope) => cap.includes(scope));
}
