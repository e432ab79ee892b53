import { keyedHash, matchesKeyedHash } from '@authz/shared/crypto';
import { InvalidClientError } from '@authz/shared/errors';
import { MetadataDocumentError } from '../cimd/metadata-document.js';
import { isUuid } from '../clients/uuid.js';
import type { ClientsRegistry } from '../registry.js';
import type { AuthenticatableClient } from './authenticatable-client.js';
import {
  readPresentedCredentials,
  rejected,
  type Presented,
  type PresentedCredentials,
} from './presented-credentials.js';
import { verifyClientAssertion } from './verify-client-assertion.js';

export type AuthenticationDeps = Pick<
  ClientsRegistry,
  'prisma' | 'redis' | 'secretHashKey' | 'cimd' | 'keySets' | 'assertionAudiences'
>;

export type { PresentedCredentials } from './presented-credentials.js';

export interface Authenticated {
  client: AuthenticatableClient;
  /** Set when an API key stood in for the secret. */
  apiKeyId?: string;
}

/**
 * Spec 5 client authentication. Every failure is the same bare invalid_client
 * (DECISIONS.md #21): nothing tells an unknown client from a wrong secret. The one exception
 * is a client metadata document that cannot stand for a client: its problem is public and
 * the spec (7, "Other rules") asks for an error_description. Nothing is written here; the
 * caller reports uses with RecordClientUsage (coalesced lastUsedAt).
 */
export async function authenticateClient(
  deps: AuthenticationDeps,
  credentials: PresentedCredentials,
): Promise<Authenticated> {
  const presented = readPresentedCredentials(credentials);
  const client = await resolveClient(deps, presented.clientId);
  if (!client?.enabled) throw rejected('unknown or disabled client');
  return verifyPresented(deps, client, presented, credentials.grantType);
}

// Spec 5: pre-registered clients first, then client metadata documents, then dynamically
// registered clients. Stored client ids are UUIDs and CIMD ids are URLs, so the order only
// matters for the (impossible) overlap; it is kept explicit all the same.
async function resolveClient(
  deps: AuthenticationDeps,
  clientId: string,
): Promise<AuthenticatableClient | undefined> {
  const stored = isUuid(clientId) ? await deps.prisma.client.findUnique({ where: { clientId } }) : null;
  if (stored?.source === 'pre_registered') return stored;
  if (deps.cimd?.handles(clientId)) {
    try {
      return await deps.cimd.resolve(clientId);
    } catch (error) {
      if (error instanceof MetadataDocumentError)
        throw new InvalidClientError({ message: error.description });
      throw error;
    }
  }
  return stored ?? undefined;
}

async function verifyPresented(
  deps: AuthenticationDeps,
  client: AuthenticatableClient,
  presented: Presented,
  grantType: string,
): Promise<Authenticated> {
  switch (presented.method) {
    case 'none':
    case 'private_key_jwt':
      if (presented.method !== client.tokenEndpointAuthMethod)
        throw rejected('authentication method mismatch');
      if (presented.method === 'private_key_jwt')
        await verifyClientAssertion(deps, client, presented.assertion);
      return { client };
    case 'client_secret_basic':
    case 'client_secret_post':
      return verifySecret(deps, client, presented.method, presented.secret, grantType);
  }
}

// The registered secret, by the registered method only; or an API key (DECISIONS.md #15),
// accepted in Basic or the body alike.
async function verifySecret(
  deps: AuthenticationDeps,
  client: AuthenticatableClient,
  method: 'client_secret_basic' | 'client_secret_post',
  secret: string,
  grantType: string,
): Promise<Authenticated> {
  const { secretHash } = client;
  if (method === client.tokenEndpointAuthMethod && secretHash !== null) {
    if (matchesKeyedHash(deps.secretHashKey, secret, secretHash)) return { client };
  }
  const apiKeyId = await matchingApiKeyId(deps, client, secret, grantType);
  if (apiKeyId) return { client, apiKeyId };
  throw rejected('wrong secret or method');
}

// DECISIONS.md #14, #15: a live API key of a development client, for client_credentials only.
// Its id is returned for the caller's coalesced usage report; nothing is written here.
async function matchingApiKeyId(
  deps: AuthenticationDeps,
  client: AuthenticatableClient,
  secret: string,
  grantType: string,
): Promise<string | undefined> {
  if (grantType !== 'client_credentials' || client.environment !== 'development' || !secret || !client.id) {
    return undefined;
  }
  const key = await deps.prisma.apiKey.findFirst({
    where: { clientId: client.id, keyHash: keyedHash(deps.secretHashKey, secret), revokedAt: null },
    select: { id: true },
  });
  return key?.id;
}
