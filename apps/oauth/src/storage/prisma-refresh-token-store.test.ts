import { createPrismaAdapter } from '@authz/shared/database';
import { testLogger, useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.js';
import { describeRefreshTokenStore } from '../../test/refresh-token-store-contract.js';
import { PrismaRefreshTokenStore } from './prisma-refresh-token-store.js';

const environment = useTestEnvironment();
let prisma: PrismaClient;
let store: PrismaRefreshTokenStore;

beforeAll(() => {
  prisma = new PrismaClient({ adapter: createPrismaAdapter(environment.databaseUrl, testLogger()) });
  store = new PrismaRefreshTokenStore(prisma);
});

afterAll(() => prisma?.$disconnect());

describeRefreshTokenStore('PrismaRefreshTokenStore', () => store);
