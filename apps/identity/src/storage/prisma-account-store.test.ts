import { useTestEnvironment } from '@authz/shared/testing';
import { describeAccountStore } from '../../test/account-store-contract.js';
import { usePrismaStores } from '../../test/prisma-stores.js';

describeAccountStore('PrismaAccountStore', usePrismaStores(useTestEnvironment()));
