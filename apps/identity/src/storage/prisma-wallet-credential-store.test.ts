import { useTestEnvironment } from '@authz/shared/testing';
import { describeWalletCredentialStore } from '../../test/wallet-credential-store-contract.js';
import { usePrismaStores } from '../../test/prisma-stores.js';

describeWalletCredentialStore('PrismaWalletCredentialStore', usePrismaStores(useTestEnvironment()));
