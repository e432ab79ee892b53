import { createPrismaAdapter } from '@authz/shared/database';
import { testLogger, useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.js';
import { describeDerivedTokenStore } from '../../test/derived-token-store-contract.js';
import { PrismaDerivedTokenStore } from './prisma-derived-token-store.js';
import { PrismaRefreshTokenStore } from './prisma-refresh-token-store.js';

const environment = useTestEnvironment();
let prisma: PrismaClient;
let stores: { refreshTokens: PrismaRefreshTokenStore; derivedTokens: PrismaDerivedTokenStore };

beforeAll(() => {
  prisma = new PrismaClient({ adapter: createPrismaAdapter(environment.databaseUrl, testLogger()) });
  stores = {
    refreshTokens: new PrismaRefreshTokenStore(prisma),
    derivedTokens: new PrismaDerivedTokenStore(prisma),
  };
});

afterAll(() => prisma?.$disconnect());

describeDerivedTokenStore('PrismaDerivedTokenStore', () => stores);
