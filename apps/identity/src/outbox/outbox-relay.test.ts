import { randomBytes, randomUUID } from 'node:crypto';
import { createPrismaAdapter } from '@authz/shared/database';
import { MAIL_QUEUE_NAME, VERIFICATION_EMAIL_JOB, mailQueuePrefix } from '@authz/shared/mail';
import { testLogger, useTestEnvironment } from '@authz/shared/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '../generated/prisma/client.js';
import { eventually } from '../../test/identity-harness.js';
import { createMailQueue, type MailQueue } from './mail-queue.js';
import { outboxKey, sealOutboxPayload } from './outbox-payload.js';
import { createOutboxRelay } from './outbox-relay.js';
import { PrismaMailOutbox } from '../storage/prisma-mail-outbox.js';

const environment = useTestEnvironment();
const key = outboxKey(randomBytes(32));
const log = testLogger();
let prisma: PrismaClient;
let queue: MailQueue;
let reader: Queue;
let readerConnection: Redis;

beforeAll(() => {
  prisma = new PrismaClient({ adapter: createPrismaAdapter(environment.databaseUrl, log) });
  queue = createMailQueue(environment.redisUrl, environment.redisPrefix);
  readerConnection = new Redis(environment.redisUrl, { maxRetriesPerRequest: null });
  reader = new Queue(MAIL_QUEUE_NAME, {
    connection: readerConnection,
    prefix: mailQueuePrefix(environment.redisPrefix),
  });
});
afterAll(async () => {
  await reader.close();
  readerConnection.disconnect();
  await queue.close();
  await prisma.$disconnect();
});

const job = {
  to: 'ivan@example.com',
  verifyUrl: `http://localhost:3000/ui/verify-email?token=${'b'.repeat(64)}`,
};

async function insertRow(id = randomUUID()): Promise<string> {
  await prisma.mailOutbox.create({
    data: { id, jobName: VERIFICATION_EMAIL_JOB, payload: sealOutboxPayload(key, id, job) },
  });
  return id;
}

describe('mail outbox relay (docs/decisions.md #29)', () => {
  it('keeps rows while the queue refuses them, then enqueues each exactly once', async () => {
    const id = await insertRow();
    const failing = { add: () => Promise.reject(new Error('redis down')), close: async () => undefined };
    const broken = createOutboxRelay({
      outbox: new PrismaMailOutbox(prisma),
      queue: failing,
      outboxKey: key,
      log,
      pollIntervalMs: 20,
    });
    broken.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await broken.stop();
    const kept = await prisma.mailOutbox.findUniqueOrThrow({ where: { id } });
    expect(kept.enqueuedAt).toBeNull();
    expect(kept.payload).not.toBeNull();

    // A restarted relay delivers it.
    const relay = createOutboxRelay({
      outbox: new PrismaMailOutbox(prisma),
      queue,
      outboxKey: key,
      log,
      pollIntervalMs: 60_000,
    });
    relay.start();
    await eventually(
      async () => (await prisma.mailOutbox.findUniqueOrThrow({ where: { id } })).enqueuedAt ?? undefined,
    );
    const added = await reader.getJob(id);
    expect(added?.name).toBe('verification-email');
    expect(added?.data).toEqual(job);

    // A crash between adding the job and marking the row: the row is sent again, the job id dedupes it.
    await prisma.mailOutbox.update({
      where: { id },
      data: { enqueuedAt: null, payload: sealOutboxPayload(key, id, job) },
    });
    relay.kick();
    await eventually(
      async () => (await prisma.mailOutbox.findUniqueOrThrow({ where: { id } })).enqueuedAt ?? undefined,
    );
    await relay.stop();
    expect(await reader.getJobCountByTypes('waiting', 'active', 'delayed', 'completed', 'failed')).toBe(1);
  });

  it('drains more rows than one batch', async () => {
    const ids = await Promise.all(Array.from({ length: 60 }, () => insertRow()));
    const relay = createOutboxRelay({
      outbox: new PrismaMailOutbox(prisma),
      queue,
      outboxKey: key,
      log,
      pollIntervalMs: 60_000,
    });
    relay.start();
    await eventually(async () =>
      (await prisma.mailOutbox.count({ where: { enqueuedAt: null } })) === 0 ? true : undefined,
    );
    await relay.stop();
    const jobs = await reader.getJobs(['waiting']);
    expect(jobs.map((queued) => queued.id)).toEqual(expect.arrayContaining(ids));
    expect(jobs).toHaveLength(61); // these 60 and the one of the first test
  });
});
