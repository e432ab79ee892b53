import { useTestEnvironment } from '@authz/shared/testing';
import { describeMailOutbox } from '../../test/mail-outbox-store-contract.js';
import { usePrismaStores } from '../../test/prisma-stores.js';

describeMailOutbox('PrismaMailOutbox', usePrismaStores(useTestEnvironment()));
