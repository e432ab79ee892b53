import { createHash } from 'node:crypto';
import { postForm, type OutboundPolicy } from '@authz/shared/outbound';
import { sessionEventsQueuePrefix } from '@authz/shared/session-events';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '@authz/shared/logger';
import type { BackchannelLogoutDeliveries } from '../metrics/backchannel-logout-metrics.js';
import type {
  BackchannelDeliveries,
  BackchannelLogoutJob,
  LogoutTokenSender,
} from '../protocol/session-end/backchannel-port.js';
import {
  deliverLogoutToken,
  FinalDeliveryError,
  type DeliveryDeps,
} from '../protocol/session-end/deliver-logout-token.js';

export const BACKCHANNEL_LOGOUT_QUEUE_NAME = 'backchannel-logout';
const DELIVERY_JOB = 'logout-token';

/**
 * docs/tokens.md #28: 1 s doubling over 12 attempts, so a
 * receiver that is down gets the token if it is back within about an hour and a quarter.
 */
export const DELIVERY_ATTEMPTS = 12;
const FIRST_RETRY_DELAY_MS = 1000;

/** One deadline per attempt and a small answer: the receiver only acknowledges. */
export const DELIVERY_POLICY: Omit<OutboundPolicy, 'allowInsecureLoopback'> = {
  timeoutMs: 5000,
  maxBytes: 16 * 1024,
};

export interface BackchannelLogoutQueue extends BackchannelDeliveries {
  close(): Promise<void>;
}

export interface BackchannelLogoutQueueOptions {
  redisUrl: string;
  redisKeyPrefix: string;
  allowInsecureLoopback: boolean;
  deliveries: BackchannelLogoutDeliveries;
  log: Logger;
  concurrency?: number;
}

/** The sender of production: a form POST through the SSRF-safe outbound client. */
export function outboundLogoutTokenSender(allowInsecureLoopback: boolean): LogoutTokenSender {
  return (uri, logoutToken) =>
    postForm(uri, { logout_token: logoutToken }, { ...DELIVERY_POLICY, allowInsecureLoopback });
}

/**
 * The delivery queue and its worker in every oauth replica (BullMQ hands each job to one).
 * Adding never waits for a delivery: the user's logout returns at once (interface.md 4.3).
 */
export function openBackchannelLogoutQueue(
  deps: Omit<DeliveryDeps, 'send'>,
  options: BackchannelLogoutQueueOptions,
): BackchannelLogoutQueue {
  const connection = (name: string) => {
    const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null, connectionName: name });
    redis.on('error', () => undefined);
    return redis;
  };
  const queueConnection = connection('oauth-backchannel-queue');
  const workerConnection = connection('oauth-backchannel-worker');
  const prefix = sessionEventsQueuePrefix(options.redisKeyPrefix);
  const queue = new Queue(BACKCHANNEL_LOGOUT_QUEUE_NAME, { connection: queueConnection, prefix });
  queue.on('error', () => undefined);
  const delivery: DeliveryDeps = { ...deps, send: outboundLogoutTokenSender(options.allowInsecureLoopback) };
  const worker = new Worker(
    BACKCHANNEL_LOGOUT_QUEUE_NAME,
    (job: Job<BackchannelLogoutJob>) => processDelivery(delivery, options, job),
    { connection: workerConnection, prefix, concurrency: options.concurrency ?? 10 },
  );
  worker.on('error', (error) => options.log.warn({ err: error }, 'back-channel logout worker error'));
  return {
    async enqueue(job) {
      await queue.add(DELIVERY_JOB, job, {
        jobId: deliveryJobId(job),
        attempts: DELIVERY_ATTEMPTS,
        backoff: { type: 'exponential', delay: FIRST_RETRY_DELAY_MS },
        // Kept an hour so that a fan-out retried meanwhile adds the same delivery only once.
        removeOnComplete: { age: 3600 },
        removeOnFail: { age: 24 * 3600 },
      });
    },
    async close() {
      await worker.close().catch(() => undefined);
      await queue.close().catch(() => undefined);
      for (const redis of [queueConnection, workerConnection]) {
        await redis.quit().catch(() => redis.disconnect());
      }
    },
  };
}

// One delivery per session and client; a hash, as CIMD client ids are URLs.
function deliveryJobId({ sessionId, clientId }: BackchannelLogoutJob): string {
  return createHash('sha256').update(`${sessionId}\n${clientId}`).digest('hex');
}

async function processDelivery(
  deps: DeliveryDeps,
  options: BackchannelLogoutQueueOptions,
  job: Job<BackchannelLogoutJob>,
): Promise<void> {
  const log = options.log.child({ clientId: job.data.clientId, attempt: job.attemptsMade + 1 });
  try {
    await deliverLogoutToken(deps, job.data);
    options.deliveries.count('delivered');
  } catch (error) {
    if (error instanceof FinalDeliveryError) {
      options.deliveries.count(error.outcome);
      log.warn({ outcome: error.outcome, reason: error.message }, 'back-channel logout not delivered');
      throw new UnrecoverableError(error.message);
    }
    const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const outcome = last ? 'failed' : 'retried';
    options.deliveries.count(outcome);
    log.warn({ outcome, reason: (error as Error).message }, 'back-channel logout delivery failed');
    throw error;
  }
}
