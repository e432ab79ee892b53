import type { Registry } from 'prom-client';
import { counterByLabel, type CountsByLabel } from './counter-by-label.js';

/**
 * How a client authentication was answered: `hit` from the cache; `miss` by the clients
 * service, then cached if it succeeded; by the clients service without the cache for an
 * `assertion` (private_key_jwt: single use, never cached) or while `unsubscribed` (the
 * invalidation channel is down, docs/decisions.md #28). Hit ratio: hit / (hit + miss)
 * (docs/observability.md).
 */
export type ClientCacheResult = 'hit' | 'miss' | 'assertion' | 'unsubscribed';

export type ClientCacheLookups = CountsByLabel<ClientCacheResult>;

/** `client_cache_lookups_total{result}`, every result exported from the start at zero. */
export function createClientCacheLookups(registry: Registry): ClientCacheLookups {
  const results: ClientCacheResult[] = ['hit', 'miss', 'assertion', 'unsubscribed'];
  return counterByLabel(registry, {
    name: 'client_cache_lookups_total',
    help: 'Client authentications by how the client record cache answered (hit, miss, assertion, unsubscribed)',
    label: 'result',
    values: results,
  });
}
