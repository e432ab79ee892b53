import type { Realm } from '../generated/prisma/client.js';

/** Storage of realms (docs/conventions.md #7). */
export interface RealmStore {
  /**
   * The realm named `name`, created as the default realm with these scopes unless it exists
   * (an existing realm is returned as it is). Concurrent calls agree on one row.
   */
  ensureDefault(name: string, allowedScopes: string[]): Promise<Realm>;
}
