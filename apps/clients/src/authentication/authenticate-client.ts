import { keyedHash, matchesKeyedHash } from '@authz/shared/crypto';
import { InvalidClientError } from '@authz/shared/errors';
import type { Client } from '../generated/prisma/client.js';
import type { ClientsRegistry } from '../registry.js';

export type AuthenticationDeps = Pick<ClientsRegistry, 'prisma' | 'secretHashKey'>;

/** What the token endpoint received (spec 5); Basic is already Base64- and form-decoded. */
export interface PresentedCredentials {
  bodyClientId?: string;
  bodyClientSecret?: string;
  basic?: { clientId: string; clientSecret: string };
  /** The grant asked for: API keys count only for client_credentials (DECISIONS.md #15). */
  grantType: string;
}

interface Presented {
  clientId: string;
  method: 'client_secret_basic' | 'client_secret_post' | 'none';
  secret?: string;
}

/**
 * Spec 5 client authentication at the token endpoint. Every failure is the same bare
 * invalid_client (DECISIONS.md #21): no description tells an unknown client from a wrong secret.
 * private_key_jwt is not verified yet, so such clients cannot authenticate (docs/clients.md #10).
 */
export async function authenticateClient(
  deps: AuthenticationDeps,
  credentials: PresentedCredentials,
): Promise<Client> {
  const presented = presentedCredentials(credentials);
  const client = await deps.prisma.client.findUnique({ where: { clientId: presented.clientId } });
  if (!client?.enabled) throw rejected('unknown or disabled client');
  if (presented.method !== client.tokenEndpointAuthMethod) throw rejected('authentication method mismatch');
  if (presented.method === 'none') return client;
  const secret = presented.secret ?? '';
  if (client.secretHash !== null && matchesKeyedHash(deps.secretHashKey, secret, client.secretHash))
    return client;
  if (await matchesApiKey(deps, client, secret, credentials.grantType)) return client;
  throw rejected('wrong secret');
}

// Spec 5: the Basic header wins over body credentials; a differing body client_id fails.
function presentedCredentials({ basic, bodyClientId, bodyClientSecret }: PresentedCredentials): Presented {
  if (basic) {
    if (bodyClientId !== undefined && bodyClientId !== basic.clientId) throw rejected('client_id mismatch');
    return { clientId: basic.clientId, method: 'client_secret_basic', secret: basic.clientSecret };
  }
  if (!bodyClientId) throw rejected('no client_id');
  if (bodyClientSecret !== undefined) {
    return { clientId: bodyClientId, method: 'client_secret_post', secret: bodyClientSecret };
  }
  return { clientId: bodyClientId, method: 'none' };
}

// DECISIONS.md #14, #15: a live API key of a development client, for client_credentials only.
async function matchesApiKey(
  deps: AuthenticationDeps,
  client: Client,
  secret: string,
  grantType: string,
): Promise<boolean> {
  if (grantType !== 'client_credentials' || client.environment !== 'development' || !secret) return false;
  const { count } = await deps.prisma.apiKey.updateMany({
    where: { clientId: client.id, keyHash: keyedHash(deps.secretHashKey, secret), revokedAt: null },
    data: { lastUsedAt: new Date() },
  });
  return count > 0;
}

function rejected(detail: string): InvalidClientError {
  return new InvalidClientError({ detail });
}
