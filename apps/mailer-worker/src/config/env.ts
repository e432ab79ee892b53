import { envRedisUrl, envUrl, loadEnvParts, serviceRuntimeSchema } from '@authz/shared/env';
import { z } from 'zod';

/** The mailer-worker service's environment, validated once at start-up (CONTRACT.md). */
const settingsSchema = z.object({
  REDIS_URL: envRedisUrl(),
  SMTP_URL: envUrl(['smtp', 'smtps']),
  MAIL_FROM: z.string().min(3).default('no-reply@localhost'),
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
    smtpUrl: settings.SMTP_URL,
    mailFrom: settings.MAIL_FROM,
  };
}
