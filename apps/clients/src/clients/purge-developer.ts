import { ValidationError } from '@authz/shared/errors';
import type { Registry } from '../registry.js';
import { isUuid } from './uuid.js';

/**
 * The clients service's part of an account deletion (interface.md 4.10, docs/identity.md #19): every
 * client of the developer goes with its API keys, and every cache of client records hears of
 * it (docs/decisions.md #28), so none authenticates again. Idempotent: what is already gone is
 * skipped, so a deletion interrupted halfway can repeat it. Answers how many were deleted.
 */
export async function purgeDeveloper(
  deps: Pick<Registry, 'clients' | 'invalidations'>,
  developerId: string,
): Promise<number> {
  if (!isUuid(developerId)) throw new ValidationError([{ path: 'developerId', message: 'must be a UUID' }]);
  let deleted = 0;
  for (const client of await deps.clients.listOwned(developerId)) {
    if (await deps.clients.delete(client.id)) deleted += 1;
    await deps.invalidations.publish(client.clientId, 'deleted');
  }
  return deleted;
}
