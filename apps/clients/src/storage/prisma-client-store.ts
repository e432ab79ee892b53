import type { KeysetPosition } from '@authz/shared/pagination';
import type { ClientConfig } from '../clients/client-config.js';
import type { ClientStore, NewClient } from '../clients/client-store.js';
import { Prisma, type Client, type PrismaClient } from '../generated/prisma/client.js';

export class PrismaClientStore implements ClientStore {
  constructor(private readonly prisma: PrismaClient) {}

  create({ config, ...client }: NewClient): Promise<Client> {
    return this.prisma.client.create({ data: { ...configData(config), ...client } });
  }

  async findOwned(developerId: string, id: string): Promise<Client | undefined> {
    const client = await this.prisma.client.findFirst({
      where: { developerId, OR: [{ id }, { clientId: id }] },
    });
    return client ?? undefined;
  }

  listOwned(developerId: string): Promise<Client[]> {
    return this.prisma.client.findMany({
      where: { developerId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  async findByClientId(clientId: string): Promise<Client | undefined> {
    return (await this.prisma.client.findUnique({ where: { clientId } })) ?? undefined;
  }

  update(id: string, changes: { config?: ClientConfig; secretHash?: string | null }): Promise<Client> {
    return this.prisma.client.update({
      where: { id },
      data: {
        ...(changes.config ? configData(changes.config) : {}),
        ...(changes.secretHash !== undefined ? { secretHash: changes.secretHash } : {}),
      },
    });
  }

  async delete(id: string): Promise<boolean> {
    const { count } = await this.prisma.client.deleteMany({ where: { id } });
    return count > 0;
  }

  async recordUse(id: string, usedAt: Date): Promise<void> {
    await this.prisma.client.updateMany({
      where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: usedAt } }] },
      data: { lastUsedAt: usedAt },
    });
  }

  async findAny(id: string): Promise<Client | undefined> {
    return (await this.prisma.client.findFirst({ where: { OR: [{ id }, { clientId: id }] } })) ?? undefined;
  }

  listAll(filter: { developerId?: string; after?: KeysetPosition; limit: number }): Promise<Client[]> {
    const { after } = filter;
    return this.prisma.client.findMany({
      where: {
        ...(filter.developerId === undefined ? {} : { developerId: filter.developerId }),
        ...(after
          ? { OR: [{ createdAt: { gt: after.at } }, { createdAt: after.at, id: { gt: after.id } }] }
          : {}),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: filter.limit,
    });
  }

  setEnvironment(
    id: string,
    environment: string,
    revokeApiKeysAt: Date | null,
  ): Promise<{ clientId: string; revokedKeys: number } | undefined> {
    return this.prisma.$transaction(async (tx) => {
      const client = await tx.client.findFirst({ where: { OR: [{ id }, { clientId: id }] } });
      if (!client) return undefined;
      await tx.client.update({ where: { id: client.id }, data: { environment } });
      const revoked = revokeApiKeysAt
        ? await tx.apiKey.updateMany({
            where: { clientId: client.id, revokedAt: null },
            data: { revokedAt: revokeApiKeysAt },
          })
        : { count: 0 };
      return { clientId: client.clientId, revokedKeys: revoked.count };
    });
  }
}

/** The columns a validated configuration writes (jwks as JSON, or SQL NULL). */
function configData(config: ClientConfig) {
  return {
    name: config.name,
    description: config.description,
    redirectUris: config.redirectUris,
    scopes: config.scopes,
    grantTypes: config.grantTypes,
    responseTypes: config.responseTypes,
    tokenEndpointAuthMethod: config.tokenEndpointAuthMethod,
    enabled: config.enabled,
    jwks: config.jwks === null ? Prisma.DbNull : (config.jwks as Prisma.InputJsonValue),
    jwksUri: config.jwksUri,
    postLogoutRedirectUris: config.postLogoutRedirectUris,
    backchannelLogoutUri: config.backchannelLogoutUri,
    backchannelLogoutSessionRequired: config.backchannelLogoutSessionRequired,
    idTokenSignedResponseAlg: config.idTokenSignedResponseAlg,
  };
}
