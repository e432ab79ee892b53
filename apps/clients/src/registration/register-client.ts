import { randomUUID } from 'node:crypto';
import { InvalidClientMetadataError, ValidationError } from '@authz/shared/errors';
import { keyedHash, randomHexToken } from '@authz/shared/crypto';
import { usesSecret, type ClientConfig } from '../clients/client-config.js';
import { defaultResponseTypes } from '../clients/device-code-grant.js';
import { validateClientConfig } from '../clients/validate-client.js';
import type { Client } from '../generated/prisma/client.js';
import type { Registry } from '../registry.js';
import { toRegistrationError } from './metadata-problems.js';
import {
  cappedScopes,
  parseRegistrationMetadata,
  type RegistrationMetadata,
} from './registration-metadata.js';

export type RegistrationDeps = Pick<
  Registry,
  | 'clients'
  | 'secretHashKey'
  | 'dynamicRegistrationScopes'
  | 'allowInsecureLoopback'
  | 'registrationGrantTypes'
>;

export interface Registration {
  client: Client;
  clientSecret?: string;
  /** client_name as sent; the stored name falls back to the client id. */
  clientName?: string;
}

/**
 * RFC 7591 section 3, open mode: RFC defaults (section 2), the rules of the developer API
 * (docs/clients.md #2) plus the token-exchange grant, scopes narrowed to the dynamic
 * registration cap (interface.md 5, docs/clients.md #9). Source `dynamic`, no developer, the default
 * realm (stored as null).
 */
export async function registerClient(deps: RegistrationDeps, metadataJson: string): Promise<Registration> {
  const metadata = parseRegistrationMetadata(metadataJson);
  const clientId = randomUUID();
  const config = registeredConfig(metadata, clientId, deps.dynamicRegistrationScopes);
  try {
    validateClientConfig(config, {
      allowedScopes: new Set(),
      checkScopes: false,
      grantTypes: deps.registrationGrantTypes,
      allowInsecureLoopback: deps.allowInsecureLoopback,
    });
  } catch (error) {
    throw error instanceof ValidationError ? toRegistrationError(error.details ?? []) : error;
  }
  const agentScopeModes = checkAgentScopeModes(metadata, config.scopes);
  // RFC 7591 section 3.2.1: client_secret only for a client that authenticates with one.
  const clientSecret = usesSecret(config.tokenEndpointAuthMethod) ? randomHexToken() : undefined;
  const client = await deps.clients.create({
    config,
    clientId,
    secretHash: clientSecret ? keyedHash(deps.secretHashKey, clientSecret) : null,
    isAgent: metadata.isAgent ?? false,
    agentScopeModes,
    source: 'dynamic',
    developerId: null,
    realmId: null,
  });
  return {
    client,
    ...(clientSecret ? { clientSecret } : {}),
    ...(metadata.clientName !== undefined ? { clientName: metadata.clientName } : {}),
  };
}

// RFC 7591 section 2 defaults; client_secret_basic is the RFC's default method.
function registeredConfig(
  metadata: RegistrationMetadata,
  clientId: string,
  cap: readonly string[],
): ClientConfig {
  return {
    name: metadata.clientName ?? clientId,
    description: null,
    redirectUris: unique(metadata.redirectUris ?? []),
    scopes: cappedScopes(metadata.scopes, cap),
    grantTypes: unique(metadata.grantTypes ?? ['authorization_code']),
    responseTypes: unique(
      metadata.responseTypes ?? defaultResponseTypes(metadata.grantTypes ?? ['authorization_code']),
    ),
    tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod ?? 'client_secret_basic',
    enabled: true,
    jwks: metadata.jwks ?? null,
    jwksUri: metadata.jwksUri ?? null,
    postLogoutRedirectUris: unique(metadata.postLogoutRedirectUris ?? []),
    backchannelLogoutUri: metadata.backchannelLogoutUri ?? null,
    backchannelLogoutSessionRequired: metadata.backchannelLogoutSessionRequired ?? false,
    requirePushedAuthorizationRequests: metadata.requirePushedAuthorizationRequests ?? false,
    dpopBoundAccessTokens: metadata.dpopBoundAccessTokens ?? false,
    idTokenSignedResponseAlg: metadata.idTokenSignedResponseAlg ?? 'EdDSA',
  };
}

// interface.md 2.2 and docs/clients.md #19: an agent may cap the scope modes it can obtain by token
// exchange below its registered scopes. A mode outside them is refused rather than dropped, so
// a cap can never come out empty and fall back to the wider default.
function checkAgentScopeModes(metadata: RegistrationMetadata, scopes: readonly string[]): string[] {
  const modes = unique(metadata.agentScopeModes ?? []);
  if (modes.length === 0) return [];
  if (metadata.isAgent !== true) {
    throw new InvalidClientMetadataError({ message: 'agent_scope_modes requires is_agent' });
  }
  const outside = modes.filter((mode) => !scopes.includes(mode));
  if (outside.length > 0) {
    throw new InvalidClientMetadataError({
      message: `agent_scope_modes must be among the registered scopes: ${outside.join(' ')}`,
    });
  }
  return modes;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
