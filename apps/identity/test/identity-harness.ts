import { AccountLookupService, AuditService, IdentityService } from '@authz/proto/identity/v1/identity';
import { GrpcChannel, type ServiceClient } from '@authz/shared/grpc';
import { MAIL_QUEUE_NAME, mailQueuePrefix } from '@authz/shared/mail';
import { startService } from '@authz/shared/service';
import { openTestPool, serviceTestEnv, testLogger, type TestEnvironment } from '@authz/shared/testing';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { buildIdentityApp, loadIdentityEnv } from '../src/app.js';

export interface IdentityHarness {
  client: ServiceClient<typeof IdentityService>;
  audit: ServiceClient<typeof AuditService>;
  accounts: ServiceClient<typeof AccountLookupService>;
  /** Direct SQL on this file's database, to look at what was stored. */
  sql: pg.Pool;
  /** The mail queue as the mailer-worker sees it. */
  mailQueue: Queue;
  secretHashKey: Buffer;
  close(): Promise<void>;
}

/** Builds and starts identity over real gRPC with cheap argon2 parameters (same code path). */
export async function startIdentity(
  environment: TestEnvironment,
  overrides: NodeJS.ProcessEnv = {},
): Promise<IdentityHarness> {
  const env = loadIdentityEnv({
    ...serviceTestEnv(environment),
    REDIS_KEY_PREFIX: environment.redisPrefix,
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_ITERATIONS: '1',
    ...overrides,
  });
  const running = await startService(await buildIdentityApp({ env, logger: testLogger() }), '127.0.0.1', 0);
  const channel = new GrpcChannel(`127.0.0.1:${running.grpcPort}`);
  const sql = openTestPool(environment.databaseUrl, 2);
  const connection = new Redis(environment.redisUrl, { maxRetriesPerRequest: null });
  const mailQueue = new Queue(MAIL_QUEUE_NAME, {
    connection,
    prefix: mailQueuePrefix(environment.redisPrefix),
  });
  return {
    client: channel.service(IdentityService),
    audit: channel.service(AuditService),
    accounts: channel.service(AccountLookupService),
    sql,
    mailQueue,
    secretHashKey: env.secretHashKey,
    async close() {
      channel.close();
      await running.close();
      await mailQueue.close();
      connection.disconnect();
      await sql.end();
    },
  };
}

/** Polls until `check` returns a value (the relay runs after the RPC has answered). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** The verification links queued for `to`, oldest first, once there are at least `count`. */
export async function verificationLinks(
  harness: Pick<IdentityHarness, 'mailQueue'>,
  to: string,
  count: number,
): Promise<string[]> {
  return eventually(async () => {
    const jobs = await harness.mailQueue.getJobs(['waiting', 'delayed', 'active', 'completed']);
    const links = jobs
      .filter((job) => job.data.to === to)
      .sort((a, b) => a.timestamp - b.timestamp)
      .map((job) => job.data.verifyUrl as string);
    return links.length >= count ? links : undefined;
  });
}

/** The token inside a verification mail's link. */
export function tokenOf(verifyUrl: string): string {
  return new URL(verifyUrl).searchParams.get('token') ?? '';
}

export const ORIGIN = { ip: '203.0.113.7', userAgent: 'vitest' };
