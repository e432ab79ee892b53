// Operator command (docs/decisions.md #14):
//   node apps/clients/dist/set-environment.js <clientId> <development|staging|production|unset>
// with DATABASE_URL and REDIS_URL set (REDIS_KEY_PREFIX optional). Leaving development revokes
// the client's API keys; caches are told through the invalidation channel (docs/clients.md).
import { createLogger } from '@authz/shared/logger';
import { ENVIRONMENTS } from './environments/set-environment.js';
import { runSetEnvironment } from './environments/set-environment-command.js';

const log = createLogger({ service: 'clients-set-environment', level: process.env.LOG_LEVEL ?? 'info' });
const [id, environment] = process.argv.slice(2);
const { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: redisKeyPrefix = '' } = process.env;

if (!id || !environment || !databaseUrl || !redisUrl) {
  log.error(
    `usage: DATABASE_URL=... REDIS_URL=... set-environment.js <clientId> <${ENVIRONMENTS.join('|')}>`,
  );
  process.exitCode = 2;
} else {
  try {
    const result = await runSetEnvironment({ databaseUrl, redisUrl, redisKeyPrefix, log }, id, environment);
    log.info({ ...result, environment }, 'client environment set');
  } catch (error) {
    log.error({ err: error }, 'client environment not set');
    process.exitCode = 1;
  }
}
