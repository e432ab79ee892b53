import type { Logger } from '@authz/shared/logger';
import { createRedisClient } from '@authz/shared/redis';
import { createServiceApp, redisDependency, type ServiceApp } from '@authz/shared/service';
import { Redis } from 'ioredis';
import type { MailerWorkerEnv } from './config/env.js';
import { createMailMetrics } from './mail/mail-metrics.js';
import { openMailQueueDepth } from './mail/mail-queue-depth.js';
import { startMailWorker } from './mail/mail-worker.js';
import { createSmtpTransport } from './mail/smtp-transport.js';

export interface MailerWorkerDeps {
  env: MailerWorkerEnv;
  logger: Logger;
}

/** Builds the mailer-worker service: renders and sends email from the BullMQ queue over SMTP. */
export async function buildMailerWorkerApp({ env, logger }: MailerWorkerDeps): Promise<ServiceApp> {
  const redis = createRedisClient(env.redisUrl, { name: 'mailer-worker', failFast: true });
  const app = await createServiceApp('mailer-worker', logger, { cache: redisDependency(redis) });
  const queueDepth = openMailQueueDepth(app.metrics, redis, env.redisKeyPrefix);
  const connection = createWorkerConnection(env.redisUrl);
  const transport = createSmtpTransport(env.smtpUrl);
  const worker = startMailWorker({
    connection,
    redisKeyPrefix: env.redisKeyPrefix,
    transport,
    mailFrom: env.mailFrom,
    metrics: createMailMetrics(app.metrics),
    logger,
    concurrency: env.mailConcurrency,
    lockDurationMs: env.lockDurationMs,
    stalledIntervalMs: env.stalledIntervalMs,
  });
  return {
    server: app.server,
    metrics: app.metrics,
    close: async () => {
      // Lets in-flight sends finish (they are bounded by the SMTP timeouts); a job cut off
      // by a harder stop is re-delivered once its lock expires.
      await worker.close();
      await queueDepth.close();
      await connection.quit().catch(() => connection.disconnect());
      transport.close();
      await app.close();
    },
  };
}

/** BullMQ needs commands that wait out a Redis outage rather than fail (`maxRetriesPerRequest: null`). */
function createWorkerConnection(redisUrl: string): Redis {
  const connection = new Redis(redisUrl, {
    connectionName: 'mailer-worker:queue',
    maxRetriesPerRequest: null,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
  // BullMQ's worker reports connection errors itself; an unhandled 'error' would crash.
  connection.on('error', () => undefined);
  return connection;
}

export { loadMailerWorkerEnv, type MailerWorkerEnv } from './config/env.js';
