import type { Logger } from '@authz/shared/logger';
import { createRedisClient } from '@authz/shared/redis';
import { createServiceApp, redisDependency, type ServiceApp } from '@authz/shared/service';
import type { MailerWorkerEnv } from './config/env.js';

export interface MailerWorkerDeps {
  env: MailerWorkerEnv;
  logger: Logger;
}

/** Builds the mailer-worker service: renders and sends email from the BullMQ queue over SMTP. */
export async function buildMailerWorkerApp({ env, logger }: MailerWorkerDeps): Promise<ServiceApp> {
  const redis = createRedisClient(env.redisUrl, { name: 'mailer-worker', failFast: true });
  return createServiceApp('mailer-worker', logger, { cache: redisDependency(redis) });
}

export { loadMailerWorkerEnv, type MailerWorkerEnv } from './config/env.js';
