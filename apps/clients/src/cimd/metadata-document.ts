import { InvalidClientMetadataError, InvalidRedirectUriError, ValidationError } from '@authz/shared/errors';
import type { AuthenticatableClient } from '../authentication/authenticatable-client.js';
import type { ClientConfig } from '../clients/client-config.js';
import { DEVICE_CODE_GRANT, defaultResponseTypes } from '../clients/device-code-grant.js';
import { validateClientConfig } from '../clients/validate-client.js';
import { describeProblems } from '../registration/metadata-problems.js';
import { cappedScopes, parseRegistrationMetadata } from '../registration/registration-metadata.js';

/** A document that cannot stand for a client; `description` is sent as error_description. */
export class MetadataDocumentError extends Error {
  constructor(readonly description: string) {
    super(description);
  }
}

/** draft section 4.1: no shared secrets for a client anyone can claim by URL. */
const CIMD_AUTH_METHODS = ['none', 'private_key_jwt'];
/** CIMD clients are browser and native apps: the authorization code flow only. */
const CIMD_GRANT_TYPES = ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT];

/**
 * draft-ietf-oauth-client-id-metadata-document section 4: the document is RFC 7591 client
 * metadata whose client_id equals the URL it came from. Defaults are those of a public
 * browser client; scopes are capped like dynamic registration (interface.md 5).
 */
export function clientFromMetadataDocument(
  url: string,
  body: Buffer,
  options: { dynamicRegistrationScopes: readonly string[]; allowInsecureLoopback: boolean },
): AuthenticatableClient {
  const document = parseDocument(body);
  if (document.client_id !== url) {
    throw new MetadataDocumentError("The client metadata document's client_id does not match its URL");
  }
  if (document.client_secret !== undefined || document.client_secret_expires_at !== undefined) {
    throw new MetadataDocumentError('The client metadata document must not contain a client_secret');
  }
  const config = documentConfig(url, document, options.dynamicRegistrationScopes);
  if (!CIMD_AUTH_METHODS.includes(config.tokenEndpointAuthMethod)) {
    throw invalid('token_endpoint_auth_method: must be none or private_key_jwt');
  }
  try {
    validateClientConfig(config, {
      allowedScopes: new Set(),
      checkScopes: false,
      grantTypes: CIMD_GRANT_TYPES,
      allowInsecureLoopback: options.allowInsecureLoopback,
    });
  } catch (error) {
    if (error instanceof ValidationError) throw invalid(describeProblems(error.details ?? []));
    throw error;
  }
  return {
    id: '',
    clientId: url,
    name: config.name,
    enabled: true,
    redirectUris: config.redirectUris,
    scopes: config.scopes,
    grantTypes: config.grantTypes,
    responseTypes: config.responseTypes,
    tokenEndpointAuthMethod: config.tokenEndpointAuthMethod,
    secretHash: null,
    requirePkce: true,
    audience: [],
    environment: 'unset',
    isAgent: false,
    agentScopeModes: [],
    source: 'cimd',
    jwks: (config.jwks ?? null) as AuthenticatableClient['jwks'],
    jwksUri: config.jwksUri,
    postLogoutRedirectUris: config.postLogoutRedirectUris,
    backchannelLogoutUri: config.backchannelLogoutUri,
    backchannelLogoutSessionRequired: config.backchannelLogoutSessionRequired,
    requirePushedAuthorizationRequests: config.requirePushedAuthorizationRequests,
    dpopBoundAccessTokens: config.dpopBoundAccessTokens,
    idTokenSignedResponseAlg: config.idTokenSignedResponseAlg,
  };
}

// interface.md 7 "Other rules": a document that is not JSON is invalid_client with a description.
function parseDocument(body: Buffer): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new MetadataDocumentError('The client metadata document is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new MetadataDocumentError('The client metadata document must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

function documentConfig(
  url: string,
  document: Record<string, unknown>,
  cap: readonly string[],
): ClientConfig {
  let metadata: ReturnType<typeof parseRegistrationMetadata>;
  try {
    metadata = parseRegistrationMetadata(JSON.stringify(document));
  } catch (error) {
    if (error instanceof InvalidClientMetadataError || error instanceof InvalidRedirectUriError) {
      throw invalid(error.message);
    }
    throw error;
  }
  return {
    name: [...(metadata.clientName ?? url)].slice(0, 255).join(''),
    description: null,
    redirectUris: [...new Set(metadata.redirectUris ?? [])],
    scopes: cappedScopes(metadata.scopes, cap),
    grantTypes: [...new Set(metadata.grantTypes ?? ['authorization_code'])],
    responseTypes: [
      ...new Set(
        metadata.responseTypes ?? defaultResponseTypes(metadata.grantTypes ?? ['authorization_code']),
      ),
    ],
    tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod ?? 'none',
    enabled: true,
    jwks: metadata.jwks ?? null,
    jwksUri: metadata.jwksUri ?? null,
    postLogoutRedirectUris: [...new Set(metadata.postLogoutRedirectUris ?? [])],
    backchannelLogoutUri: metadata.backchannelLogoutUri ?? null,
    backchannelLogoutSessionRequired: metadata.backchannelLogoutSessionRequired ?? false,
    requirePushedAuthorizationRequests: metadata.requirePushedAuthorizationRequests ?? false,
    dpopBoundAccessTokens: metadata.dpopBoundAccessTokens ?? false,
    idTokenSignedResponseAlg: metadata.idTokenSignedResponseAlg ?? 'EdDSA',
  };
}

function invalid(problem: string): MetadataDocumentError {
  return new MetadataDocumentError(`The client metadata document is invalid: ${problem}`);
}
