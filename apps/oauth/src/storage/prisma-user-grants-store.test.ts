import { createPrismaAdapter } from '@authz/shared/database';
import { testLogger, useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.js';
import { describeUserGrantsStore, type UserGrantsStores } from '../../test/user-grants-store-contract.js';
import { PrismaAuthorizationCodeStore } from './prisma-authorization-code-store.js';
import { PrismaConsentStore } from './prisma-consent-store.js';
import { PrismaDerivedTokenStore } from './prisma-derived-token-store.js';
import { PrismaRefreshTokenStore } from './prisma-refresh-token-store.js';
import { PrismaUserGrantsStore } from './prisma-user-grants-store.js';

const environment = useTestEnvironment();
let prisma: PrismaClient;
let stores: UserGrantsStores;

beforeAll(() => {
  prisma = new PrismaClient({ adapter: createPrismaAdapter(environment.databaseUrl, testLogger()) });
  stores = {
    grants: new PrismaUserGrantsStore(prisma),
    refreshTokens: new PrismaRefreshTokenStore(prisma),
    consents: new PrismaConsentStore(prisma),
    codes: new PrismaAuthorizationCodeStore(prisma),
    derivedTokens: new PrismaDerivedTokenStore(prisma),
  };
});

afterAll(() => prisma?.$disconnect());

describeUserGrantsStore('PrismaUserGrantsStore', () => stores);
