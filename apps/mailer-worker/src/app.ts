import type { Logger } from '@authz/shared/logger';
import { createRedisClient } from '@authz/shared/redis';
import { createServiceApp, redisDependency, type ServiceApp } from '@authz/shared/service';
import type { MailerWorkerEnv } from './config/env.js';
import { openMailQueueDepth } from './mail/mail-queue-depth.js';
import { startMailWorker } from './mail/mail-worker.js';
import { createRegistry } from './registry.js';

export interface MailerWorkerDeps {
  env: MailerWorkerEnv;
  logger: Logger;
}

/** Builds the mailer-worker service: renders and sends email from the BullMQ queue over SMTP. */
export async function buildMailerWorkerApp({ env, logger }: MailerWorkerDeps): Promise<ServiceApp> {
  const redis = createRedisClient(env.redisUrl, { name: 'mailer-worker', failFast: true });
  const app = await createServiceApp('mailer-worker', logger, { cache: redisDependency(redis) });
  const queueDepth = openMailQueueDepth(app.metrics, redis, env.redisKeyPrefix);
  const registry = createRegistry(env, { metrics: app.metrics, logger });
  const worker = startMailWorker(registry);
  return {
    server: app.server,
    metrics: app.metrics,
    close: async () => {
      // Lets in-flight sends finish (they are bounded by the SMTP timeouts); a job cut off
      // by a harder stop is re-delivered once its lock expires.
      await worker.close();
      await queueDepth.close();
      const { connection, transport } = registry;
      await connection.quit().catch(() => connection.disconnect());
      transport.close();
      await app.close();
    },
  };
}

export { loadMailerWorkerEnv, type MailerWorkerEnv } from './config/env.js';
