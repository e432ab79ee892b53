import { useTestEnvironment } from '@authz/shared/testing';
import { describeAccountRecoveryStore } from '../../test/account-recovery-store-contract.js';
import { usePrismaStores } from '../../test/prisma-stores.js';

describeAccountRecoveryStore('PrismaAccountRecoveryStore', usePrismaStores(useTestEnvironment()));
