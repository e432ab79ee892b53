import { createPrismaAdapter } from '@authz/shared/database';
import { testLogger, useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll } from 'vitest';
import { describeApiKeyStore } from '../../test/api-key-store-contract.js';
import type { ClientsStores } from '../../test/client-store-contract.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { PrismaApiKeyStore } from './prisma-api-key-store.js';
import { PrismaClientStore } from './prisma-client-store.js';

const environment = useTestEnvironment();
let prisma: PrismaClient;
let stores: ClientsStores;

beforeAll(() => {
  prisma = new PrismaClient({ adapter: createPrismaAdapter(environment.databaseUrl, testLogger()) });
  stores = { clients: new PrismaClientStore(prisma), apiKeys: new PrismaApiKeyStore(prisma) };
});

afterAll(() => prisma?.$disconnect());

describeApiKeyStore('PrismaApiKeyStore', () => stores);
