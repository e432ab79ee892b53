import type { Logger } from '@authz/shared/logger';
import { Redis } from 'ioredis';
import type { Registry as MetricsRegistry } from 'prom-client';
import type { MailerWorkerEnv } from './config/env.js';
import { createMailMetrics, type MailMetrics } from './mail/mail-metrics.js';
import { createSmtpTransport, type MailTransport } from './mail/smtp-transport.js';

/** Everything the mail worker needs, built once per app (docs/conventions.md #6). */
export interface Registry {
  /** The worker's own connection (`maxRetriesPerRequest: null`); BullMQ duplicates it to block. */
  connection: Redis;
  redisKeyPrefix: string;
  transport: MailTransport;
  mailFrom: string;
  metrics: MailMetrics;
  logger: Logger;
  concurrency: number;
  /** A lock not renewed for this long marks the job stalled (its worker died). */
  lockDurationMs: number;
  /** How often stalled jobs are looked for and moved back to wait. */
  stalledIntervalMs: number;
}

/** Opens the worker's connection and the SMTP transport; app.ts closes them after the worker. */
export function createRegistry(
  env: MailerWorkerEnv,
  parts: { metrics: MetricsRegistry; logger: Logger },
): Registry {
  return {
    connection: createWorkerConnection(env.redisUrl),
    redisKeyPrefix: env.redisKeyPrefix,
    transport: createSmtpTransport(env.smtpUrl),
    mailFrom: env.mailFrom,
    metrics: createMailMetrics(parts.metrics),
    logger: parts.logger,
    concurrency: env.mailConcurrency,
    lockDurationMs: env.lockDurationMs,
    stalledIntervalMs: env.stalledIntervalMs,
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
