import type { ClientUse } from '@authz/proto/clients/v1/clients';
import type { Registry } from '../registry.js';
import { isUuid } from '../clients/uuid.js';

export type UsageDeps = Pick<Registry, 'clients' | 'apiKeys'>;

/**
 * Coalesced lastUsedAt (interface.md 2.2, 2.4): the token endpoint batches the uses it saw and reports
 * them here every few seconds, so a token request never waits on a database write. A time only
 * moves forward: a late report never overwrites a newer use. Unknown or deleted ids are ignored.
 */
export async function recordClientUsage(deps: UsageDeps, uses: readonly ClientUse[]): Promise<void> {
  const clients = latestUse(uses.map((use) => [use.id, use.usedAt]));
  const apiKeys = latestUse(uses.flatMap((use) => (use.apiKeyId ? [[use.apiKeyId, use.usedAt]] : [])));
  for (const [id, usedAt] of clients) await deps.clients.recordUse(id, usedAt);
  for (const [id, usedAt] of apiKeys) await deps.apiKeys.recordUse(id, usedAt);
}

// The latest valid use per id; ids that are not UUIDs (a CIMD client has none) are dropped.
function latestUse(entries: ReadonlyArray<readonly [string, bigint]>): Map<string, Date> {
  const latest = new Map<string, Date>();
  for (const [id, usedAt] of entries) {
    if (!isUuid(id) || usedAt <= 0n) continue;
    const when = new Date(Number(usedAt));
    const previous = latest.get(id);
    if (!previous || previous < when) latest.set(id, when);
  }
  return latest;
}
