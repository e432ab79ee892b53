import { randomUUID } from 'node:crypto';
import type { ClientRef, ClientSettings, Owner } from '@authz/proto/clients/v1/clients';
import { keyedHash, randomHexToken } from '@authz/shared/crypto';
import { NotFoundError, ValidationError } from '@authz/shared/errors';
import type { Client } from '../generated/prisma/client.js';
import type { Registry } from '../registry.js';
import { applySettings, configOf, createDefaults, usesSecret } from './client-config.js';
import { findOwnedClient } from './client-lookup.js';
import { validateClientConfig } from './validate-client.js';

export type ClientDeps = Pick<
  Registry,
  'clients' | 'secretHashKey' | 'realmAllowedScopes' | 'invalidations' | 'allowInsecureLoopback'
>;

/** interface.md 4.7 GET /api/clients/: the owner's clients, oldest first. */
export function listClients(deps: Pick<ClientDeps, 'clients'>, owner: Owner | undefined): Promise<Client[]> {
  return deps.clients.listOwned(owner?.developerId ?? '');
}

/**
 * interface.md 4.7 POST /api/clients/: defaults, validation, then a generated client id and, for a
 * client authenticating with a secret, a 64-hex secret returned once and stored as a keyed hash (interface.md 2.2).
 * New clients start in the development environment (docs/decisions.md #14).
 */
export async function createClient(
  deps: ClientDeps,
  owner: Owner | undefined,
  settings: ClientSettings | undefined,
): Promise<{ client: Client; clientSecret?: string }> {
  if (!owner?.developerId || !owner.realmId) throw new NotFoundError({ detail: 'no owner' });
  const config = applySettings(createDefaults(settings), {
    ...settings,
    enabled: undefined,
  } as ClientSettings);
  validateClientConfig(config, {
    allowedScopes: deps.realmAllowedScopes,
    checkScopes: true,
    allowInsecureLoopback: deps.allowInsecureLoopback,
  });
  const clientSecret = usesSecret(config.tokenEndpointAuthMethod) ? randomHexToken() : undefined;
  const client = await deps.clients.create({
    config,
    clientId: randomUUID(),
    secretHash: clientSecret ? keyedHash(deps.secretHashKey, clientSecret) : null,
    developerId: owner.developerId,
    realmId: owner.realmId,
  });
  return clientSecret ? { client, clientSecret } : { client };
}

export async function getClient(
  deps: Pick<ClientDeps, 'clients'>,
  ref: ClientRef | undefined,
): Promise<Client> {
  return findOwnedClient(deps.clients, ref);
}

/**
 * interface.md 4.7 PATCH: only present settings change; the effective configuration is revalidated,
 * the realm scope cap only when scopes are set. A client that becomes public loses its
 * secret; one that becomes confidential gets one through regenerate-secret (docs/clients.md #5).
 */
export async function updateClient(
  deps: ClientDeps,
  ref: ClientRef | undefined,
  settings: ClientSettings | undefined,
): Promise<Client> {
  const current = await findOwnedClient(deps.clients, ref);
  const config = applySettings(configOf(current), settings);
  validateClientConfig(config, {
    allowedScopes: deps.realmAllowedScopes,
    checkScopes: settings?.scopes !== undefined,
    allowInsecureLoopback: deps.allowInsecureLoopback,
  });
  const updated = await deps.clients.update(current.id, {
    config,
    ...(usesSecret(config.tokenEndpointAuthMethod) ? {} : { secretHash: null }),
  });
  await deps.invalidations.publish(
    updated.clientId,
    current.enabled && !updated.enabled ? 'disabled' : 'updated',
  );
  return updated;
}

/** interface.md 3: the client is removed (its API keys with it); issued access tokens live until exp. */
export async function deleteClient(deps: ClientDeps, ref: ClientRef | undefined): Promise<void> {
  const current = await findOwnedClient(deps.clients, ref);
  if (!(await deps.clients.delete(current.id))) throw new NotFoundError({ detail: 'deleted concurrently' });
  await deps.invalidations.publish(current.clientId, 'deleted');
}

/**
 * interface.md 3: the previous secret is invalid at once; a client that does not authenticate
 * with a secret (none, private_key_jwt) has none to regenerate (400, docs/clients.md #5).
 */
export async function regenerateClientSecret(
  deps: ClientDeps,
  ref: ClientRef | undefined,
): Promise<{ client: Client; clientSecret: string }> {
  const current = await findOwnedClient(deps.clients, ref);
  if (!usesSecret(current.tokenEndpointAuthMethod)) {
    throw new ValidationError([{ path: 'tokenEndpointAuthMethod', message: noSecretMessage(current) }]);
  }
  const clientSecret = randomHexToken();
  const client = await deps.clients.update(current.id, {
    secretHash: keyedHash(deps.secretHashKey, clientSecret),
  });
  await deps.invalidations.publish(client.clientId, 'secret_regenerated');
  return { client, clientSecret };
}

function noSecretMessage(client: Pick<Client, 'tokenEndpointAuthMethod'>): string {
  return client.tokenEndpointAuthMethod === 'none'
    ? 'is none: a public client has no secret to regenerate'
    : `is ${client.tokenEndpointAuthMethod}: the client authenticates with its keys, not a secret`;
}
