// Rotates the signing key without a restart (docs/tokens.md #7): run
// `node apps/oauth/dist/rotate-signing-key.js` with the service's environment; every replica
// publishes the new key within a reload interval, and it signs only after that.
import { createPrismaAdapter } from '@authz/shared/database';
import { createLogger } from '@authz/shared/logger';
import { loadOAuthEnv } from './config/env.js';
import { PrismaClient } from './generated/prisma/client.js';
import { KeyRing } from './keys/key-ring.js';
import { PrismaSigningKeyStore } from './keys/prisma-signing-key-store.js';

const env = loadOAuthEnv();
const logger = createLogger({ service: 'oauth-rotate-signing-key', level: env.runtime.logLevel });
const prisma = new PrismaClient({ adapter: createPrismaAdapter(env.databaseUrl, logger) });
try {
  const keys = await KeyRing.open({
    store: new PrismaSigningKeyStore(prisma),
    keyEncryptionKey: env.keyEncryptionKey,
    accessTokenTtlSeconds: env.accessTokenTtlSeconds,
    reloadIntervalMs: env.signingKeyReloadIntervalMs,
    log: logger,
  });
  keys.close();
  const { kid, activatesAt } = await keys.rotateSigningKey();
  logger.info({ kid, activatesAt }, 'signing key rotated: published now, signing from activatesAt');
  process.exitCode = 0;
} catch (error) {
  logger.error({ err: error }, 'signing key rotation failed');
  process.exitCode = 1;
} finally {
  await prisma.$disconnect();
}
