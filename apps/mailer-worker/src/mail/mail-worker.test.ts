import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '@authz/shared/logger';
import { SmtpSink } from '@authz/shared/smtp-sink';
import {
  MAIL_QUEUE_NAME,
  VERIFICATION_EMAIL_JOB,
  mailJobOptions,
  mailQueuePrefix,
  type VerificationEmailJob,
} from '@authz/shared/mail';
import { serviceTestEnv, spareTestPort, testLogger, useTestEnvironment } from '@authz/shared/testing';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildMailerWorkerApp, loadMailerWorkerEnv } from '../app.js';
import { createMailMetrics } from './mail-metrics.js';
import { startMailWorker } from './mail-worker.js';
import { createSmtpTransport } from './smtp-transport.js';
import { VERIFICATION_EMAIL_SUBJECT, escapeHtml } from './verification-email.js';

const environment = useTestEnvironment();
const MAIL_FROM = 'no-reply@authz.test';

let queue: Queue;
const cleanups: Array<() => Promise<unknown>> = [];

/** The queue exactly as identity's outbox relay opens it (docs/mail.md). */
function openQueue(redisKeyPrefix: string): Queue {
  return new Queue(MAIL_QUEUE_NAME, {
    connection: { url: environment.redisUrl },
    prefix: mailQueuePrefix(redisKeyPrefix),
  });
}

beforeAll(() => {
  queue = openQueue(environment.redisPrefix);
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(() => queue.close());

function verificationJob(): VerificationEmailJob {
  const token = randomBytes(32).toString('hex');
  return {
    to: `user-${token.slice(0, 8)}@example.com`,
    verifyUrl: `http://localhost:3000/ui/verify-email?token=${token}`,
  };
}

async function startSink(port = 0): Promise<{ sink: SmtpSink; port: number }> {
  const sink = new SmtpSink({ port, closeTimeoutMs: 100 });
  const listening = await sink.start();
  cleanups.push(() => sink.stop());
  return { sink, port: listening };
}

async function startApp(smtpPort: number, logger = testLogger()) {
  const env = loadMailerWorkerEnv({
    ...serviceTestEnv(environment),
    REDIS_KEY_PREFIX: environment.redisPrefix,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM,
  });
  const app = await buildMailerWorkerApp({ env, logger });
  cleanups.push(() => app.close());
  return app;
}

async function waitForJob(
  id: string,
  condition: (job: Job) => boolean,
  { from = queue, timeoutMs = 30_000 } = {},
): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await from.getJob(id);
    if (job && condition(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} did not reach the expected state`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function stateOf(id: string, from = queue): Promise<string> {
  return from.getJobState(id);
}

/** A completed job is removed at once (`removeOnComplete: true`, docs/mail.md). */
async function waitUntilRemoved(id: string, from = queue, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await stateOf(id, from)) !== 'unknown') {
    if (Date.now() > deadline) throw new Error(`job ${id} was not removed (${await stateOf(id, from)})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every key of the queue's BullMQ prefix with its value, as one string to search. */
async function dumpQueueKeys(redisKeyPrefix = environment.redisPrefix): Promise<string> {
  const redis = new Redis(environment.redisUrl);
  try {
    const keys: string[] = [];
    const pattern = `${mailQueuePrefix(redisKeyPrefix)}:${MAIL_QUEUE_NAME}:*`;
    for await (const batch of redis.scanStream({ match: pattern, count: 1000 })) {
      keys.push(...(batch as string[]));
    }
    const parts = await Promise.all(keys.map(async (key) => [key, await valueOf(redis, key)]));
    return JSON.stringify(parts);
  } finally {
    redis.disconnect();
  }
}

async function valueOf(redis: Redis, key: string): Promise<unknown> {
  switch (await redis.type(key)) {
    case 'hash':
      return redis.hgetall(key);
    case 'string':
      return redis.get(key);
    case 'list':
      return redis.lrange(key, 0, -1);
    case 'set':
      return redis.smembers(key);
    case 'zset':
      return redis.zrange(key, 0, -1);
    case 'stream':
      return redis.xrange(key, '-', '+');
    default:
      return null;
  }
}

function tokenOf(data: VerificationEmailJob): string {
  return new URL(data.verifyUrl).searchParams.get('token') ?? '';
}

async function counterValue(registry: Registry, name: string, labels: Record<string, string> = {}) {
  const metric = await registry.getSingleMetric(name)?.get();
  const match = metric?.values.find((value) =>
    Object.entries(labels).every(([key, expected]) => value.labels[key] === expected),
  );
  return match?.value ?? 0;
}

describe('mail worker', () => {
  it('delivers a verification email queued the way the producer queues it', async () => {
    const { sink, port } = await startSink();
    const logLines: string[] = [];
    const logger = createLogger({
      service: 'mailer-worker',
      level: 'debug',
      destination: new Writable({
        write: (chunk, _encoding, done) => done(void logLines.push(String(chunk))),
      }),
    });
    const app = await startApp(port, logger);
    const data = verificationJob();
    const id = randomUUID();

    await queue.add(VERIFICATION_EMAIL_JOB, data, mailJobOptions(id));
    await sink.waitUntil(() => sink.received.length === 1);

    const [mail] = sink.received;
    expect(mail?.subject).toBe(VERIFICATION_EMAIL_SUBJECT);
    expect(mail?.to).toBe(data.to);
    expect(mail?.envelopeTo).toEqual([data.to]);
    expect(mail?.from).toBe(MAIL_FROM);
    expect(mail?.envelopeFrom).toBe(MAIL_FROM);
    expect(mail?.messageId).toBe(`<verification-email.${id}@authz.test>`);
    expect(mail?.text).toContain(data.verifyUrl);
    expect(mail?.html).toContain(`href="${escapeHtml(data.verifyUrl)}"`);
    await waitUntilRemoved(id);
    expect(await counterValue(app.metrics, 'mail_sent_total', { kind: VERIFICATION_EMAIL_JOB })).toBe(1);

    const logs = logLines.join('');
    expect(logs).toContain('"msg":"mail sent"');
    expect(logs).toContain(`"to":"u***@example.com"`);
    expect(logs).not.toContain(data.verifyUrl.split('token=')[1]);
    expect(logs).not.toContain(data.to);
  });

  it('retries with the job backoff while SMTP is down, then delivers', async () => {
    const port = await spareTestPort();
    const app = await startApp(port);
    const data = verificationJob();
    const id = randomUUID();

    await queue.add(VERIFICATION_EMAIL_JOB, data, {
      ...mailJobOptions(id),
      backoff: { type: 'capped-exponential', delay: 50 },
    });
    await waitForJob(id, (job) => job.attemptsMade >= 2);
    const { sink } = await startSink(port);
    await sink.waitUntil(() => sink.received.length === 1);

    expect(sink.received[0]?.text).toContain(data.verifyUrl);
    await waitUntilRemoved(id);
    expect(
      await counterValue(app.metrics, 'mail_failed_total', {
        kind: VERIFICATION_EMAIL_JOB,
        outcome: 'retry',
      }),
    ).toBeGreaterThanOrEqual(2);
  });

  it('re-delivers a job whose worker died mid-send', async () => {
    const { sink, port } = await startSink();
    sink.stallData();
    // A queue of its own: BullMQ runs one stalled check per queue per interval, and the
    // other tests' workers (default 5 s interval) would hold that slot.
    const redisKeyPrefix = `${environment.redisPrefix}crash:`;
    const crashQueue = openQueue(redisKeyPrefix);
    cleanups.push(() => crashQueue.close());
    const startWorker = () => {
      const connection = new Redis(environment.redisUrl, { maxRetriesPerRequest: null });
      connection.on('error', () => undefined);
      const registry = new Registry();
      const worker = startMailWorker({
        connection,
        redisKeyPrefix,
        transport: createSmtpTransport(`smtp://127.0.0.1:${port}`),
        mailFrom: MAIL_FROM,
        metrics: createMailMetrics(registry),
        logger: testLogger(),
        concurrency: 5,
        lockDurationMs: 1000,
        stalledIntervalMs: 250,
      });
      worker.on('error', () => undefined);
      return { connection, worker, registry };
    };
    const first = startWorker();
    const data = verificationJob();
    const id = randomUUID();

    await crashQueue.add(VERIFICATION_EMAIL_JOB, data, mailJobOptions(id));
    await sink.waitUntil(() => sink.stalledCount === 1);
    // The crash: the process stops talking to Redis (no lock renewal, no completion) and
    // its SMTP connection drops before the server accepted the message.
    first.connection.disconnect();
    await first.worker.close(true).catch(() => undefined);
    sink.releaseStalled();
    expect(sink.received).toHaveLength(0);

    const second = startWorker();
    cleanups.push(async () => {
      await second.worker.close();
      second.connection.disconnect();
    });
    await sink.waitUntil(() => sink.received.length === 1);

    expect(sink.received[0]?.text).toContain(data.verifyUrl);
    await waitUntilRemoved(id, crashQueue);
    expect(await counterValue(second.registry, 'mail_jobs_stalled_total')).toBe(1);
  });

  it('fails malformed and unknown jobs at once, without retries', async () => {
    const { sink, port } = await startSink();
    const app = await startApp(port);
    const malformed = randomUUID();
    const unknown = randomUUID();

    await queue.add(
      VERIFICATION_EMAIL_JOB,
      { to: 'nobody', verifyUrl: 'javascript:alert(1)' },
      mailJobOptions(malformed),
    );
    await queue.add('password-reminder', verificationJob(), mailJobOptions(unknown));

    const rejected = await waitForJob(malformed, (job) => job.finishedOn !== undefined);
    expect(await stateOf(malformed)).toBe('failed');
    expect(rejected.attemptsMade).toBe(1);
    expect(rejected.failedReason).toMatch(/^invalid verification-email job: to: .+; verifyUrl: /);
    const unknownJob = await waitForJob(unknown, (job) => job.finishedOn !== undefined);
    expect(await stateOf(unknown)).toBe('failed');
    expect(unknownJob.attemptsMade).toBe(1);
    expect(unknownJob.failedReason).toBe('unknown mail job "password-reminder"');
    expect(sink.received).toHaveLength(0);
    expect(await counterValue(app.metrics, 'mail_failed_total', { outcome: 'rejected' })).toBe(1);
    expect(rejected.data).toEqual({ to: '***', redacted: true });
    expect(unknownJob.data).toEqual({ to: expect.stringMatching(/^u\*\*\*@example\.com$/), redacted: true });
  });
});

describe('verification links in Redis (docs/security.md #12, finding 11)', () => {
  it('keeps no key holding the link once the mail is sent', async () => {
    const { sink, port } = await startSink();
    await startApp(port);
    const data = verificationJob();
    const id = randomUUID();

    await queue.add(VERIFICATION_EMAIL_JOB, data, mailJobOptions(id));
    await sink.waitUntil(() => sink.received.length === 1);
    const deadline = Date.now() + 30_000;
    while (!['completed', 'unknown'].includes(await stateOf(id)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }

    const dump = await dumpQueueKeys();
    expect(dump).not.toContain(tokenOf(data));
    expect(dump).not.toContain(data.to);
    expect(await stateOf(id)).toBe('unknown');
  });

  it('keeps a permanently failed job, its recipient masked and without the link', async () => {
    const app = await startApp(await spareTestPort());
    const data = verificationJob();
    const id = randomUUID();

    await queue.add(VERIFICATION_EMAIL_JOB, data, {
      ...mailJobOptions(id),
      attempts: 2,
      backoff: { type: 'capped-exponential', delay: 50 },
    });
    const job = await waitForJob(id, (candidate) => candidate.finishedOn !== undefined);

    expect(await stateOf(id)).toBe('failed');
    expect(job.attemptsMade).toBe(2);
    expect(job.failedReason).toBeTruthy();
    expect(job.data).toEqual({ to: `${data.to[0]}***@example.com`, redacted: true });
    const dump = await dumpQueueKeys();
    expect(dump).not.toContain(tokenOf(data));
    expect(dump).not.toContain(data.to);
    expect(
      await counterValue(app.metrics, 'mail_failed_total', {
        kind: VERIFICATION_EMAIL_JOB,
        outcome: 'exhausted',
      }),
    ).toBe(1);
  });
});
