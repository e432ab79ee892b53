import { HealthService } from '@authz/proto/health/v1/health';
import { MetricsService } from '@authz/proto/metrics/v1/metrics';
import { GrpcServer } from '@authz/shared/grpc';
import { healthServiceImplementation, warmUp } from '@authz/shared/health';
import type { Logger } from '@authz/shared/logger';
import { createMetricsRegistry, metricsServiceImplementation } from '@authz/shared/metrics';
import { createRedisClient, whenReady } from '@authz/shared/redis';
import type { ServiceApp } from '@authz/shared/service';
import type { MailerWorkerEnv } from './config/env.js';

export interface MailerWorkerDeps {
  env: MailerWorkerEnv;
  logger: Logger;
}

/** Builds the mailer-worker service: renders and sends email from the BullMQ queue over SMTP. */
export async function buildMailerWorkerApp({ env, logger }: MailerWorkerDeps): Promise<ServiceApp> {
  const redis = createRedisClient(env.redisUrl, { name: 'mailer-worker', failFast: true });
  await Promise.all([warmUp('cache', () => whenReady(redis), logger)]);
  const metrics = createMetricsRegistry('mailer-worker');
  const server = new GrpcServer({ serviceName: 'mailer-worker', logger })
    .addService(HealthService, healthServiceImplementation({ cache: () => redis.ping() }))
    .addService(MetricsService, metricsServiceImplementation(metrics));
  return {
    server,
    metrics,
    close: async () => {
      await Promise.allSettled([redis.quit()]);
    },
  };
}

export { loadMailerWorkerEnv, type MailerWorkerEnv } from './config/env.js';
