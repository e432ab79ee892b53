import { useTestEnvironment } from '@authz/shared/testing';
import { describeAuditLog } from '../../test/audit-log-store-contract.js';
import { usePrismaStores } from '../../test/prisma-stores.js';

describeAuditLog('PrismaAuditLog', usePrismaStores(useTestEnvironment()));
