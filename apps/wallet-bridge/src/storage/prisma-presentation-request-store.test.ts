import { createPrismaAdapter } from '@authz/shared/database';
import { testLogger, useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll } from 'vitest';
import { describePresentationRequestStore } from '../../test/presentation-request-store-contract.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { PrismaPresentationRequestStore } from './prisma-presentation-request-store.js';

const environment = useTestEnvironment();
let prisma: PrismaClient;
let store: PrismaPresentationRequestStore;

beforeAll(() => {
  prisma = new PrismaClient({ adapter: createPrismaAdapter(environment.databaseUrl, testLogger()) });
  store = new PrismaPresentationRequestStore(prisma);
});

afterAll(() => prisma?.$disconnect());

describePresentationRequestStore('PrismaPresentationRequestStore', () => store);
