import type { PrismaClient, Realm } from '../generated/prisma/client.js';
import type { RealmStore } from '../realms/realm-store.js';

export class PrismaRealmStore implements RealmStore {
  constructor(private readonly prisma: PrismaClient) {}

  async ensureDefault(name: string, allowedScopes: string[]): Promise<Realm> {
    // Replicas may start together: the insert ignores a concurrent one and the row is read back.
    await this.prisma.realm.createMany({
      data: [{ name, isDefault: true, allowedScopes }],
      skipDuplicates: true,
    });
    return this.prisma.realm.findUniqueOrThrow({ where: { name } });
  }
}
