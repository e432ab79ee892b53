import { randomUUID } from 'node:crypto';
import {
  InvalidClientMetadataError,
  InvalidRedirectUriError,
  ValidationError,
  type FieldViolation,
} from '@authz/shared/errors';
import { keyedHash, randomHexToken } from '@authz/shared/crypto';
import { isConfidential, type ClientConfig } from '../clients/client-config.js';
import { configData } from '../clients/client-data.js';
import { validateClientConfig } from '../clients/validate-client.js';
import type { Client } from '../generated/prisma/client.js';
import type { ClientsRegistry } from '../registry.js';
import {
  DYNAMIC_GRANT_TYPES,
  parseRegistrationMetadata,
  type RegistrationMetadata,
} from './registration-metadata.js';

export type RegistrationDeps = Pick<
  ClientsRegistry,
  'prisma' | 'secretHashKey' | 'dynamicRegistrationScopes'
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
 * registration cap (spec 5, docs/clients.md #9). Source `dynamic`, no developer, the default
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
      grantTypes: DYNAMIC_GRANT_TYPES,
    });
  } catch (error) {
    throw error instanceof ValidationError ? toRegistrationError(error.details ?? []) : error;
  }
  const clientSecret = isConfidential(config.tokenEndpointAuthMethod) ? randomHexToken() : undefined;
  const client = await deps.prisma.client.create({
    data: {
      ...configData(config),
      clientId,
      secretHash: clientSecret ? keyedHash(deps.secretHashKey, clientSecret) : null,
      isAgent: metadata.isAgent ?? false,
      source: 'dynamic',
      developerId: null,
      realmId: null,
    },
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
    responseTypes: unique(metadata.responseTypes ?? ['code']),
    tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod ?? 'client_secret_basic',
    enabled: true,
    jwks: metadata.jwks ?? null,
    jwksUri: metadata.jwksUri ?? null,
  };
}

// RFC 7591 section 2 lets the server replace requested values: outside the cap is dropped;
// no scope at all registers the whole cap.
function cappedScopes(requested: string[] | undefined, cap: readonly string[]): string[] {
  if (requested === undefined) return [...cap];
  return unique(requested).filter((scope) => cap.includes(scope));
}

const METADATA_NAMES: Record<string, string> = {
  name: 'client_name',
  redirectUris: 'redirect_uris',
  grantTypes: 'grant_types',
  responseTypes: 'response_types',
  tokenEndpointAuthMethod: 'token_endpoint_auth_method',
  jwks: 'jwks',
  jwksUri: 'jwks_uri',
};

/** RFC 7591 section 3.2.2: redirect URI problems first, else every metadata problem. */
function toRegistrationError(details: FieldViolation[]): Error {
  const describe = ({ path, message }: FieldViolation) => `${metadataName(path)}: ${renameFields(message)}`;
  const redirects = details.filter(({ path }) => path.startsWith('redirectUris'));
  if (redirects.length > 0)
    return new InvalidRedirectUriError({ message: redirects.map(describe).join('; ') });
  return new InvalidClientMetadataError({ message: details.map(describe).join('; ') });
}

function metadataName(path: string): string {
  const [field = path, index] = path.split('.');
  const name = METADATA_NAMES[field] ?? field;
  return index === undefined ? name : `${name}[${index}]`;
}

function renameFields(message: string): string {
  return message.replace(/tokenEndpointAuthMethod|jwksUri/g, (field) => METADATA_NAMES[field] ?? field);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
