import { useTestEnvironment } from '@authz/shared/testing';
import { describeSessionStore } from '../../test/session-store-contract.js';
import { usePrismaStores } from '../../test/prisma-stores.js';

describeSessionStore('PrismaSessionStore', usePrismaStores(useTestEnvironment()));
