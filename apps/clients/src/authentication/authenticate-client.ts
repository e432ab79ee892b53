import { randomBytes } from 'node:crypto';
import { keyedHash, matchesKeyedHash } from '@authz/shared/crypto';
import type { Registry } from '../registry.js';
import type { AuthenticatableClient } from './authenticatable-client.js';
import { findClient } from '../resolution/find-client.js';
import {
  readPresentedCredentials,
  rejected,
  type Presented,
  type PresentedCredentials,
} from './presented-credentials.js';
import { verifyClientAssertion } from './verify-client-assertion.js';

export type AuthenticationDeps = Pick<
  Registry,
  'clients' | 'apiKeys' | 'redis' | 'secretHashKey' | 'cimd' | 'keySets' | 'assertionAudience'
>;

export type { PresentedCredentials } from './presented-credentials.js';

export interface Authenticated {
  client: AuthenticatableClient;
  /** Set when an API key stood in for the secret. */
  apiKeyId?: string;
}

/**
 * interface.md 5 client authentication. Every failure is the same bare invalid_client
 * (docs/decisions.md #21): nothing tells an unknown client from a wrong secret. The one exception
 * is a client metadata document that cannot stand for a client: its problem is public and
 * docs/interface.md 7 gives it an error_description. Nothing is written here; the
 * caller reports uses with RecordClientUsage (coalesced lastUsedAt).
 */
export async function authenticateClient(
  deps: AuthenticationDeps,
  credentials: PresentedCredentials,
): Promise<Authenticated> {
  const presented = readPresentedCredentials(credentials);
  const client = await findClient(deps, presented.clientId);
  if (!client?.enabled) {
    await spendAsOnAWrongSecret(deps, presented, credentials.grantType);
    throw rejected('unknown or disabled client');
  }
  return verifyPresented(deps, client, presented, credentials.grantType);
}

/** Never a record id (ids are random v4 UUIDs): the API-key lookup of the decoy finds nothing. */
const DECOY_ID = '00000000-0000-0000-0000-000000000000';
/** A hash no presented secret has (an HMAC preimage), so the decoy comparison always fails. */
const DECOY_SECRET_HASH = randomBytes(32).toString('hex');

/**
 * An unknown or disabled client that presents a secret costs what a wrong secret costs
 * (docs/security.md "Enumeration"): the same keyed-hash comparison and, for client_credentials,
 * the same API-key lookup, run against a decoy that matches nothing.
 */
async function spendAsOnAWrongSecret(
  deps: AuthenticationDeps,
  presented: Presented,
  grantType: string,
): Promise<void> {
  if (presented.method !== 'client_secret_basic' && presented.method !== 'client_secret_post') return;
  const decoy = {
    id: DECOY_ID,
    environment: 'development',
    tokenEndpointAuthMethod: presented.method,
    secretHash: DECOY_SECRET_HASH,
  };
  await matchSecret(deps, decoy, presented.method, presented.secret, grantType);
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

async function verifySecret(
  deps: AuthenticationDeps,
  client: AuthenticatableClient,
  method: 'client_secret_basic' | 'client_secret_post',
  secret: string,
  grantType: string,
): Promise<Authenticated> {
  const match = await matchSecret(deps, client, method, secret, grantType);
  if (!match) throw rejected('wrong secret or method');
  return { client, ...match };
}

/** What a secret comparison reads of a client (a real one, or the decoy above). */
type SecretHolder = Pick<
  AuthenticatableClient,
  'id' | 'environment' | 'tokenEndpointAuthMethod' | 'secretHash'
>;

// The registered secret, by the registered method only; or an API key (docs/decisions.md #15),
// accepted in Basic or the body alike.
async function matchSecret(
  deps: AuthenticationDeps,
  client: SecretHolder,
  method: 'client_secret_basic' | 'client_secret_post',
  secret: string,
  grantType: string,
): Promise<{ apiKeyId?: string } | undefined> {
  const { secretHash } = client;
  if (method === client.tokenEndpointAuthMethod && secretHash !== null) {
    if (matchesKeyedHash(deps.secretHashKey, secret, secretHash)) return {};
  }
  const apiKeyId = await matchingApiKeyId(deps, client, secret, grantType);
  return apiKeyId ? { apiKeyId } : undefined;
}

// docs/decisions.md #14, #15: a live API key of a development client, for client_credentials only.
// Its id is returned for the caller's coalesced usage report; nothing is written here.
async function matchingApiKeyId(
  deps: AuthenticationDeps,
  client: SecretHolder,
  secret: string,
  grantType: string,
): Promise<string | undefined> {
  if (grantType !== 'client_credentials' || client.environment !== 'development' || !secret || !client.id) {
    return undefined;
  }
  return deps.apiKeys.findLiveId(client.id, keyedHash(deps.secretHashKey, secret));
}
