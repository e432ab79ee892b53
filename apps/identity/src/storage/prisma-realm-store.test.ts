import { useTestEnvironment } from '@authz/shared/testing';
import { describeRealmStore } from '../../test/realm-store-contract.js';
import { usePrismaStores } from '../../test/prisma-stores.js';

describeRealmStore('PrismaRealmStore', usePrismaStores(useTestEnvironment()));
