import type { Realm } from '../generated/prisma/client.js';
import type { RealmStore } from './realm-store.js';

export const DEFAULT_REALM_NAME = 'default';

/** docs/decisions.md #1: one realm to start, created on first start. */
export function ensureDefaultRealm(realms: RealmStore, allowedScopes: string[]): Promise<Realm> {
  return realms.ensureDefault(DEFAULT_REALM_NAME, allowedScopes);
}
