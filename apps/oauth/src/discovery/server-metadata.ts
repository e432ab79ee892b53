import { ACR_VALUES_SUPPORTED, CLIENT_ASSERTION_SIGNING_ALGORITHMS } from '@authz/shared/protocol';
import { ID_JAG_GRANT_PROFILE } from '../protocol/id-jag/id-jag.js';
import { DPOP_SIGNING_ALGORITHMS } from '../protocol/dpop/dpop-algorithms.js';

export interface DiscoveryConfig {
  /** JWT_ISSUER: every endpoint lives under it (RFC 8414 section 2). */
  issuer: string;
  /** The realm's allowed-scopes policy: the scopes a client can ever be granted. */
  scopesSupported: readonly string[];
  /** The grant types the token endpoint runs (its grant registry). */
  grantTypesSupported: readonly string[];
  /** CIMD_ENABLED (interface.md 4.4: the entry appears only when the feature is on). */
  cimdEnabled: boolean;
  /** ENTERPRISE_ASSERTION_ENABLED (interface.md 4.4: the jwt-bearer grant and the profile only when on). */
  enterpriseAssertionEnabled: boolean;
  /** REQUIRE_PAR (RFC 9126 section 5, docs/par-and-dpop.md #4). */
  requirePushedAuthorizationRequests: boolean;
}

/** Introspection and revocation take shared-secret client authentication only (interface.md 5). */
const SHARED_SECRET_METHODS = ['client_secret_basic', 'client_secret_post'];

/**
 * RFC 8414 section 2 authorization server metadata, with every statement of interface.md 4.4. Signing
 * is EdDSA, with RS256 for the ID tokens of clients registered for it (docs/decisions.md #11).
 */
export function authorizationServerMetadata(config: DiscoveryConfig): Record<string, unknown> {
  const { issuer } = config;
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    registration_endpoint: `${issuer}/oauth/register`,
    scopes_supported: [...config.scopesSupported],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...config.grantTypesSupported],
    token_endpoint_auth_methods_supported: [
      'client_secret_basic',
      'client_secret_post',
      'none',
      'private_key_jwt',
    ],
    token_endpoint_auth_signing_alg_values_supported: [...CLIENT_ASSERTION_SIGNING_ALGORITHMS],
    revocation_endpoint: `${issuer}/oauth/revoke`,
    revocation_endpoint_auth_methods_supported: SHARED_SECRET_METHODS,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    introspection_endpoint_auth_methods_supported: SHARED_SECRET_METHODS,
    // OAuth 2.1 and RFC 9700 section 2.1.1: PKCE with S256 only.
    code_challenge_methods_supported: ['S256'],
    // RFC 9207: fixed, not configurable (interface.md 4.4).
    authorization_response_iss_parameter_supported: true,
    // RFC 8707 resource indicators on the authorization and token endpoints (interface.md 4.4).
    resource_indicators_supported: true,
    // RFC 9126 section 5 (docs/par-and-dpop.md #1, #4).
    pushed_authorization_request_endpoint: `${issuer}/oauth/par`,
    require_pushed_authorization_requests: config.requirePushedAuthorizationRequests,
    // RFC 9449 section 5.1 (docs/par-and-dpop.md #7).
    dpop_signing_alg_values_supported: [...DPOP_SIGNING_ALGORITHMS],
    ...(config.cimdEnabled ? { client_id_metadata_document_supported: true } : {}),
    // RFC 8628 section 4 (interface.md 4.13).
    device_authorization_endpoint: `${issuer}/oauth/device_authorization`,
    // draft-ietf-oauth-identity-assertion-authz-grant: this server redeems ID-JAGs.
    ...(config.enterpriseAssertionEnabled
      ? { authorization_grant_profiles_supported: [ID_JAG_GRANT_PROFILE] }
      : {}),
  };
}

/** OpenID Connect Discovery 1.0 section 3: the RFC 8414 members plus the OpenID Provider ones. */
export function openidConfiguration(config: DiscoveryConfig): Record<string, unknown> {
  return {
    ...authorizationServerMetadata(config),
    userinfo_endpoint: `${config.issuer}/oauth/userinfo`,
    subject_types_supported: ['public'],
    // docs/decisions.md #11: EdDSA, and RS256 for clients registered for it (docs/tokens.md #34).
    id_token_signing_alg_values_supported: ['EdDSA', 'RS256'],
    claims_supported: [
      'sub',
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'sid',
      'nonce',
      'name',
      'email',
      'email_verified',
      // docs/strong-authentication.md #5.
      'acr',
      'amr',
    ],
    // OIDC Discovery 3: the classes acr_values may ask for (docs/strong-authentication.md #14).
    acr_values_supported: [...ACR_VALUES_SUPPORTED],
    // OIDC Core 3.1.2.1: the prompt values /oauth/authorize accepts (docs/authorization.md #6).
    prompt_values_supported: ['none', 'login', 'consent'],
    // OIDC Core 5.5 and 6 are not supported; request_uri_parameter_supported defaults to true
    // (OIDC Discovery 3), so all three are stated.
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    // interface.md 4.3: RP-Initiated Logout 1.0 section 2.1, Back-Channel Logout 1.0 section 2.1
    // (logout tokens carry sid), Front-Channel Logout 1.0 section 3 (not offered).
    end_session_endpoint: `${config.issuer}/oauth/logout`,
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    frontchannel_logout_supported: false,
  };
}
