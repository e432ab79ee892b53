import type { Registry } from 'prom-client';
import { counterByLabel, type CountsByLabel } from './counter-by-label.js';

/** How a profile read was answered: from memory, by identity then kept, by identity while the cache is bypassed. */
export type UserProfileLookup = 'hit' | 'miss' | 'unsubscribed';

export type UserProfileLookups = CountsByLabel<UserProfileLookup>;

/**
 * `user_profile_cache_lookups_total{result}`: GetUser answered from the cache (`hit`), by
 * identity then cached (`miss`), or by identity while the invalidation channel is down
 * (`unsubscribed`, docs/decisions.md #28). Every result is exported from the start at zero.
 */
export function createUserProfileLookups(registry: Registry): UserProfileLookups {
  const results: UserProfileLookup[] = ['hit', 'miss', 'unsubscribed'];
  return counterByLabel(registry, {
    name: 'user_profile_cache_lookups_total',
    help: 'User profile reads by how the profile cache answered (hit, miss, unsubscribed)',
    label: 'result',
    values: results,
  });
}
