import type { ClientSettings } from '@authz/proto/clients/v1/clients';
import type { Client } from '../generated/prisma/client.js';
import { defaultResponseTypes } from './device-code-grant.js';

/** The effective, developer-settable configuration of a client (interface.md 4.7). */
export interface ClientConfig {
  name: string;
  description: string | null;
  redirectUris: string[];
  scopes: string[];
  grantTypes: string[];
  responseTypes: string[];
  tokenEndpointAuthMethod: string;
  enabled: boolean;
  /** Parsed JSON, or INVALID_JSON when the text was not JSON. */
  jwks: unknown;
  jwksUri: string | null;
  /** interface.md 4.3 (OIDC RP-Initiated Logout 1.0 section 3.1). */
  postLogoutRedirectUris: string[];
  /** interface.md 4.3 (OIDC Back-Channel Logout 1.0 section 2.2). */
  backchannelLogoutUri: string | null;
  backchannelLogoutSessionRequired: boolean;
  /** RFC 9126 section 6 (docs/par-and-dpop.md #4). */
  requirePushedAuthorizationRequests: boolean;
  /** RFC 9449 section 5.2 (docs/par-and-dpop.md #11). */
  dpopBoundAccessTokens: boolean;
  /** OIDC Dynamic Registration 1.0 section 2; validated to EdDSA or RS256 (docs/tokens.md #34). */
  idTokenSignedResponseAlg: string;
}

export const INVALID_JSON = Symbol('invalid JSON');

/** interface.md 4.7 POST defaults. */
export const CREATE_DEFAULTS: ClientConfig = {
  name: '',
  description: null,
  redirectUris: [],
  scopes: [],
  grantTypes: ['authorization_code', 'refresh_token'],
  responseTypes: ['code'],
  tokenEndpointAuthMethod: 'none',
  enabled: true,
  jwks: null,
  jwksUri: null,
  postLogoutRedirectUris: [],
  backchannelLogoutUri: null,
  backchannelLogoutSessionRequired: false,
  requirePushedAuthorizationRequests: false,
  dpopBoundAccessTokens: false,
  idTokenSignedResponseAlg: 'EdDSA',
};

/**
 * interface.md 4.7 POST defaults for these settings: responseTypes follow the grant types named
 * (docs/device-grant.md #8), so a device-only client needs no `responseTypes: []`.
 */
export function createDefaults(settings: ClientSettings | undefined): ClientConfig {
  const grantTypes = settings?.grantTypes?.values;
  return grantTypes
    ? { ...CREATE_DEFAULTS, responseTypes: defaultResponseTypes(grantTypes) }
    : CREATE_DEFAULTS;
}

export function configOf(client: Client): ClientConfig {
  return {
    name: client.name,
    description: client.description,
    redirectUris: client.redirectUris,
    scopes: client.scopes,
    grantTypes: client.grantTypes,
    responseTypes: client.responseTypes,
    tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
    enabled: client.enabled,
    jwks: client.jwks,
    jwksUri: client.jwksUri,
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    backchannelLogoutUri: client.backchannelLogoutUri,
    backchannelLogoutSessionRequired: client.backchannelLogoutSessionRequired,
    requirePushedAuthorizationRequests: client.requirePushedAuthorizationRequests,
    dpopBoundAccessTokens: client.dpopBoundAccessTokens,
    idTokenSignedResponseAlg: client.idTokenSignedResponseAlg,
  };
}

/** Applies the fields present in `settings` over `base`; absent fields keep their value. */
export function applySettings(base: ClientConfig, settings: ClientSettings | undefined): ClientConfig {
  if (!settings) return base;
  return {
    name: settings.name ?? base.name,
    description: settings.description ? (settings.description.value ?? null) : base.description,
    redirectUris: settings.redirectUris ? unique(settings.redirectUris.values) : base.redirectUris,
    scopes: settings.scopes ? unique(settings.scopes.values) : base.scopes,
    grantTypes: settings.grantTypes ? unique(settings.grantTypes.values) : base.grantTypes,
    responseTypes: settings.responseTypes ? unique(settings.responseTypes.values) : base.responseTypes,
    tokenEndpointAuthMethod: settings.tokenEndpointAuthMethod ?? base.tokenEndpointAuthMethod,
    enabled: settings.enabled ?? base.enabled,
    jwks: settings.jwks ? parseJson(settings.jwks.value) : base.jwks,
    jwksUri: settings.jwksUri ? (settings.jwksUri.value ?? null) : base.jwksUri,
    postLogoutRedirectUris: settings.postLogoutRedirectUris
      ? unique(settings.postLogoutRedirectUris.values)
      : base.postLogoutRedirectUris,
    backchannelLogoutUri: settings.backchannelLogoutUri
      ? (settings.backchannelLogoutUri.value ?? null)
      : base.backchannelLogoutUri,
    backchannelLogoutSessionRequired:
      settings.backchannelLogoutSessionRequired ?? base.backchannelLogoutSessionRequired,
    requirePushedAuthorizationRequests:
      settings.requirePushedAuthorizationRequests ?? base.requirePushedAuthorizationRequests,
    dpopBoundAccessTokens: settings.dpopBoundAccessTokens ?? base.dpopBoundAccessTokens,
    idTokenSignedResponseAlg: settings.idTokenSignedResponseAlg ?? base.idTokenSignedResponseAlg,
  };
}

/** Confidential: any token endpoint auth method but none (interface.md 2.2 clientSecret). */
export function isConfidential(method: string): boolean {
  return method !== 'none';
}

/**
 * Authenticates with a shared secret, so gets one (RFC 7591 section 3.2.1: client_secret only
 * for clients that use it). private_key_jwt is confidential but signs with its keys (RFC 7523
 * section 2.2); none has no credential (docs/clients.md #5).
 */
export function usesSecret(method: string): boolean {
  return method === 'client_secret_basic' || method === 'client_secret_post';
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return INVALID_JSON;
  }
}
