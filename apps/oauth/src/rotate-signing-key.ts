// Rotates the signing key without a restart (docs/tokens.md #7): run
// `node apps/oauth/dist/rotate-signing-key.js` with the service's environment; every replica
// picks the new key up within a reload interval.
import { createPrismaAdapter } from '@authz/shared/database';
import { createLogger } from '@authz/shared/logger';
import { loadOAuthEnv } from './config/env.js';
import { PrismaClient } from './generated/prisma/client.js';
import { KEY_RELOAD_INTERVAL_MS, KeyRing } from './keys/key-ring.js';
import { PrismaSigningKeyStore } from './keys/prisma-signing-key-store.js';

const env = loadOAuthEnv();
const logger = createLogger({ service: 'oauth-rotate-signing-key', level: env.runtime.logLevel });
const prisma = new PrismaClient({ adapter: createPrismaAdapter(env.databaseUrl, logger) });
try {
  const keys = await KeyRing.open({
    store: new PrismaSigningKeyStore(prisma),
    keyEncryptionKey: env.keyEncryptionKey,
    accessTokenTtlSeconds: env.accessTokenTtlSeconds,
    reloadIntervalMs: KEY_RELOAD_INTERVAL_MS,
    log: logger,
  });
  keys.close();
  await keys.rotateSigningKey();
  logger.info({ kid: keys.signingKey().kid }, 'signing key rotated');
  process.exitCode = 0;
} catch (error) {
  logger.error({ err: error }, 'signing key rotation failed');
  process.exitCode = 1;
} finally {
  await prisma.$disconnect();
}
