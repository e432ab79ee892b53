import { envPositiveInt, envRedisUrl, envUrl, loadEnvParts, serviceRuntimeSchema } from '@authz/shared/env';
import { z } from 'zod';

/** The mailer-worker service's environment, validated once at start-up (docs/contract.md). */
const settingsSchema = z.object({
  REDIS_URL: envRedisUrl(),
  // Namespace shared with the producer: the queue's BullMQ prefix is `${REDIS_KEY_PREFIX}bull`.
  REDIS_KEY_PREFIX: z.string().default(''),
  SMTP_URL: envUrl(['smtp', 'smtps']),
  MAIL_FROM: z.string().min(3).default('no-reply@localhost'),
  MAIL_CONCURRENCY: envPositiveInt(5),
  // Crash recovery (docs/mail.md): a dead worker's job is re-delivered within
  // lock duration + stalled interval.
  MAIL_LOCK_DURATION_MS: envPositiveInt(10_000),
  MAIL_STALLED_INTERVAL_MS: envPositiveInt(5_000),
});

export type MailerWorkerEnv = ReturnType<typeof loadMailerWorkerEnv>;

export function loadMailerWorkerEnv(source: NodeJS.ProcessEnv = process.env) {
  const { runtime, settings } = loadEnvParts(
    {
      runtime: serviceRuntimeSchema('mailer-worker'),
      settings: settingsSchema,
    },
    source,
  );
  return {
    runtime,
    redisUrl: settings.REDIS_URL,
    redisKeyPrefix: settings.REDIS_KEY_PREFIX,
    smtpUrl: settings.SMTP_URL,
    mailFrom: settings.MAIL_FROM,
    mailConcurrency: settings.MAIL_CONCURRENCY,
    lockDurationMs: settings.MAIL_LOCK_DURATION_MS,
    stalledIntervalMs: settings.MAIL_STALLED_INTERVAL_MS,
  };
}
