import { useTestEnvironment } from '@authz/shared/testing';
import { describeVerificationStore } from '../../test/verification-store-contract.js';
import { usePrismaStores } from '../../test/prisma-stores.js';

describeVerificationStore('PrismaVerificationStore', usePrismaStores(useTestEnvironment()));
