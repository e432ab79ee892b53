import { MAIL_QUEUE_NAME, VERIFICATION_EMAIL_JOB, mailQueuePrefix } from '@authz/shared/mail';
import { sampleValue, startMetricsServer, type MetricsServer } from '@authz/shared/metrics';
import { createRedisClient } from '@authz/shared/redis';
import { startService, type RunningService } from '@authz/shared/service';
import { serviceTestEnv, spareTestPort, testLogger, useTestEnvironment } from '@authz/shared/testing';
import { Queue } from 'bullmq';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMailerWorkerApp, loadMailerWorkerEnv } from '../app.js';
import { openMailQueueDepth } from './mail-queue-depth.js';

// mail_queue_jobs{state} on the mailer-worker's metrics port (docs/observability.md).
const environment = useTestEnvironment();
let queue: Queue;
let running: RunningService;
let metricsServer: MetricsServer;

beforeAll(async () => {
  queue = new Queue(MAIL_QUEUE_NAME, {
    connection: { url: environment.redisUrl },
    prefix: mailQueuePrefix(environment.redisPrefix),
  });
  const app = await buildMailerWorkerApp({
    env: loadMailerWorkerEnv({ ...serviceTestEnv(environment), REDIS_KEY_PREFIX: environment.redisPrefix }),
    logger: testLogger(),
  });
  running = await startService(app, '127.0.0.1', 0);
  metricsServer = await startMetricsServer(app.metrics, '127.0.0.1', 0);
});

afterAll(async () => {
  await metricsServer?.close();
  await running?.close();
  await queue?.close();
});

const depth = async () => {
  const response = await fetch(`http://127.0.0.1:${metricsServer.port}/metrics`);
  expect(response.status).toBe(200);
  const exposition = await response.text();
  return Object.fromEntries(
    ['waiting', 'active', 'delayed', 'failed'].map((state) => [
      state,
      sampleValue(exposition, 'mail_queue_jobs', { service: 'mailer-worker', state }),
    ]),
  );
};

describe('mail queue depth', () => {
  it('counts the queue by state at each scrape', async () => {
    expect(await depth()).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
    // Two jobs waiting out a delay, and one no retry can fix (no recipient): it fails at once.
    const delayed = { to: 'someone@example.com', verifyUrl: 'http://localhost:3000/ui/verify-email?token=x' };
    await queue.add(VERIFICATION_EMAIL_JOB, delayed, { delay: 60_000 });
    await queue.add(VERIFICATION_EMAIL_JOB, delayed, { delay: 60_000 });
    await queue.add(VERIFICATION_EMAIL_JOB, { verifyUrl: 'not a url' }, { attempts: 5 });
    await expect.poll(depth, { timeout: 10_000 }).toEqual({ waiting: 0, active: 0, delayed: 2, failed: 1 });
  });

  it('answers the scrape without samples, within its timeout, while Redis cannot count', async () => {
    const registry = new Registry();
    const unreachable = createRedisClient(`redis://127.0.0.1:${await spareTestPort()}`, { failFast: true });
    const queueDepth = openMailQueueDepth(registry, unreachable, environment.redisPrefix);
    try {
      const started = Date.now();
      const exposition = await registry.metrics();
      expect(Date.now() - started).toBeLessThan(5000);
      expect(exposition).toContain('# TYPE mail_queue_jobs gauge');
      expect(sampleValue(exposition, 'mail_queue_jobs')).toBeUndefined();
    } finally {
      unreachable.disconnect();
      await queueDepth.close().catch(() => undefined);
    }
  });
});
