import { NotFoundError } from '@authz/shared/errors';
import type { AuthenticatableClient } from '../authentication/authenticatable-client.js';
import { findClient, type FindClientDeps } from './find-client.js';

/**
 * The authorization endpoint's client lookup (interface.md 4.3 /oauth/authorize, docs/clients.md #16):
 * the enabled client a client_id names, by the same resolution as client authentication, with
 * no credential checked and nothing written. Unknown, disabled and deleted clients are one bare
 * NotFoundError, so oauth can show its error page and never redirect (RFC 6749 section
 * 4.1.2.1). CIMD problems stay invalid_client exactly as AuthenticateClient answers them.
 */
export async function resolveClient(deps: FindClientDeps, clientId: string): Promise<AuthenticatableClient> {
  const client = await findClient(deps, clientId);
  if (!client?.enabled) throw new NotFoundError();
  return client;
}
