import { Counter, type Registry } from 'prom-client';

/** How a profile read was answered: from memory, by identity then kept, by identity while the cache is bypassed. */
export type UserProfileLookup = 'hit' | 'miss' | 'unsubscribed';

export type UserProfileLookups = Counter<'result'>;

/**
 * `user_profile_cache_lookups_total{result}`: GetUser answered from the cache (`hit`), by
 * identity then cached (`miss`), or by identity while the invalidation channel is down
 * (`unsubscribed`, docs/decisions.md #28). Every result is exported from the start at zero.
 */
export function createUserProfileLookups(registry: Registry): UserProfileLookups {
  const lookups = new Counter({
    name: 'user_profile_cache_lookups_total',
    help: 'User profile reads by how the profile cache answered (hit, miss, unsubscribed)',
    labelNames: ['result'],
    registers: [registry],
  });
  const results: UserProfileLookup[] = ['hit', 'miss', 'unsubscribed'];
  for (const result of results) lookups.labels(result).inc(0);
  return lookups;
}
