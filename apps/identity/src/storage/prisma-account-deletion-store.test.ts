import { useTestEnvironment } from '@authz/shared/testing';
import { describeAccountDeletionStore } from '../../test/account-deletion-store-contract.js';
import { usePrismaStores } from '../../test/prisma-stores.js';

describeAccountDeletionStore('PrismaAccountDeletionStore', usePrismaStores(useTestEnvironment()));
