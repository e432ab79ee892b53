import { NotFoundError, ValidationError } from '@authz/shared/errors';
import type { Registry } from '../registry.js';
import { isUuid } from '../clients/uuid.js';

/** docs/decisions.md #14: the environments a client may be in. */
export const ENVIRONMENTS = ['development', 'staging', 'production', 'unset'] as const;
export type ClientEnvironment = (typeof ENVIRONMENTS)[number];

export function isClientEnvironment(value: string): value is ClientEnvironment {
  return (ENVIRONMENTS as readonly string[]).includes(value);
}

/**
 * The operator's move (docs/decisions.md #14): sets the environment of the client named by its
 * OAuth client id or record id; leaving development revokes its API keys in the same
 * transaction. Publishes an invalidation afterwards (docs/decisions.md #28).
 */
export async function setClientEnvironment(
  deps: Pick<Registry, 'clients' | 'invalidations'>,
  id: string,
  environment: string,
): Promise<{ clientId: string; revokedKeys: number }> {
  if (!isClientEnvironment(environment)) {
    throw new ValidationError([
      { path: 'environment', message: `must be one of ${ENVIRONMENTS.join(', ')}` },
    ]);
  }
  if (!isUuid(id)) throw new NotFoundError({ detail: 'malformed client id' });
  const result = await deps.clients.setEnvironment(
    id.toLowerCase(),
    environment,
    environment === 'development' ? null : new Date(),
  );
  if (!result) throw new NotFoundError({ detail: 'no such client' });
  await deps.invalidations.publish(result.clientId, 'environment_changed');
  return result;
}
