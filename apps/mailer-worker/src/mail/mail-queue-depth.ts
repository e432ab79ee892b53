import { MAIL_QUEUE_NAME, mailQueuePrefix } from '@authz/shared/mail';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Gauge, type Registry } from 'prom-client';

const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/** A scrape never waits longer than this for Redis (the metrics port must always answer). */
const COUNT_TIMEOUT_MS = 1000;

export interface MailQueueDepth {
  close(): Promise<void>;
}

/**
 * `mail_queue_jobs{state}`: the mail queue's jobs waiting, active, delayed (waiting out a
 * retry backoff) and failed (attempts exhausted, kept for inspection), counted in Redis at
 * each scrape. While Redis cannot answer the gauge has no samples, rather than stale ones.
 * `connection` is the service's fail-fast client, not the worker's, whose commands wait out
 * an outage.
 */
export function openMailQueueDepth(
  registry: Registry,
  connection: Redis,
  redisKeyPrefix: string,
): MailQueueDepth {
  const queue = new Queue(MAIL_QUEUE_NAME, { connection, prefix: mailQueuePrefix(redisKeyPrefix) });
  // Connection trouble surfaces on the counts; an unhandled 'error' event would crash.
  queue.on('error', () => undefined);
  new Gauge({
    name: 'mail_queue_jobs',
    help: 'Mail queue jobs by state (waiting, active, delayed, failed), counted at each scrape',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      const counts = await withTimeout(queue.getJobCounts(...STATES), COUNT_TIMEOUT_MS).catch(
        () => undefined,
      );
      if (!counts) return;
      for (const state of STATES) this.set({ state }, counts[state] ?? 0);
    },
  });
  return { close: () => queue.close() };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
