import type { ApiKeyStore, NewApiKey } from '../api-keys/api-key-store.js';
import type { ApiKey, PrismaClient } from '../generated/prisma/client.js';

export class PrismaApiKeyStore implements ApiKeyStore {
  constructor(private readonly prisma: PrismaClient) {}

  create(key: NewApiKey): Promise<ApiKey> {
    return this.prisma.apiKey.create({ data: key });
  }

  listForClient(clientId: string): Promise<ApiKey[]> {
    return this.prisma.apiKey.findMany({
      where: { clientId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  async revoke(
    clientId: string,
    keyId: string,
    now: Date,
  ): Promise<{ apiKey: ApiKey; revoked: boolean } | undefined> {
    const where = { id: keyId, clientId };
    // A conditional update, so of concurrent calls exactly one sees count 1.
    const { count } = await this.prisma.apiKey.updateMany({
      where: { ...where, revokedAt: null },
      data: { revokedAt: now },
    });
    const apiKey = await this.prisma.apiKey.findFirst({ where });
    return apiKey ? { apiKey, revoked: count > 0 } : undefined;
  }

  async findLiveId(clientId: string, keyHash: string): Promise<string | undefined> {
    const key = await this.prisma.apiKey.findFirst({
      where: { clientId, keyHash, revokedAt: null },
      select: { id: true },
    });
    return key?.id;
  }

  async recordUse(id: string, usedAt: Date): Promise<void> {
    await this.prisma.apiKey.updateMany({
      where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: usedAt } }] },
      data: { lastUsedAt: usedAt },
    });
  }
}
