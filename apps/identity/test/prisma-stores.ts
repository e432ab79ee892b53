import { createPrismaAdapter } from '@authz/shared/database';
import { testLogger, type TestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll } from 'vitest';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { PrismaAccountDeletionStore } from '../src/storage/prisma-account-deletion-store.js';
import { PrismaAccountStore } from '../src/storage/prisma-account-store.js';
import { PrismaAuditLog } from '../src/storage/prisma-audit-log.js';
import { PrismaMailOutbox } from '../src/storage/prisma-mail-outbox.js';
import { PrismaRealmStore } from '../src/storage/prisma-realm-store.js';
import { PrismaSessionStore } from '../src/storage/prisma-session-store.js';
import { PrismaAccountRecoveryStore } from '../src/storage/prisma-account-recovery-store.js';
import { PrismaVerificationStore } from '../src/storage/prisma-verification-store.js';
import { PrismaWalletCredentialStore } from '../src/storage/prisma-wallet-credential-store.js';
import type { StoresUnderTest } from './identity-stores.js';

/** The Prisma stores over this test file's database, open from beforeAll to afterAll. */
export function usePrismaStores(environment: TestEnvironment): () => StoresUnderTest {
  let prisma: PrismaClient;
  let subject: StoresUnderTest;
  beforeAll(() => {
    prisma = new PrismaClient({ adapter: createPrismaAdapter(environment.databaseUrl, testLogger()) });
    subject = {
      stores: {
        accounts: new PrismaAccountStore(prisma),
        realms: new PrismaRealmStore(prisma),
        verifications: new PrismaVerificationStore(prisma),
        sessions: new PrismaSessionStore(prisma),
        deletions: new PrismaAccountDeletionStore(prisma),
        walletCredentials: new PrismaWalletCredentialStore(prisma),
        recovery: new PrismaAccountRecoveryStore(prisma),
        audit: new PrismaAuditLog(prisma),
        outbox: new PrismaMailOutbox(prisma),
      },
      probe: {
        async auditEvents(actorUserId) {
          const events = await prisma.auditEvent.findMany({ where: { actorUserId }, orderBy: { id: 'asc' } });
          return events.map(({ type, ip, userAgent, details }) => ({ type, ip, userAgent, details }));
        },
        async auditEventsWith(key, value) {
          const events = await prisma.auditEvent.findMany({
            where: { details: { path: [key], equals: value } },
            orderBy: { id: 'asc' },
          });
          return events.map(({ type, ip, userAgent, details, actorUserId }) => ({
            type,
            ip,
            userAgent,
            details,
            actorUserId,
          }));
        },
        async outboxRow(id) {
          const row = await prisma.mailOutbox.findUnique({ where: { id } });
          return row ? { payload: row.payload, enqueuedAt: row.enqueuedAt } : undefined;
        },
      },
    };
  });
  afterAll(() => prisma?.$disconnect());
  return () => subject;
}
