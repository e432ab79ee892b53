import { randomUUID } from 'node:crypto';
import { ClientsService } from '@authz/proto/clients/v1/clients';
import { DeveloperDataService } from '@authz/proto/clients/v1/developer_data';
import { GrpcChannel, type ServiceClient } from '@authz/shared/grpc';
import { startService } from '@authz/shared/service';
import { openTestPool, serviceTestEnv, testLogger, type TestEnvironment } from '@authz/shared/testing';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { buildClientsApp, loadClientsEnv } from '../src/app.js';
import { invalidationChannel } from '../src/invalidation/client-invalidations.js';

export interface ClientsHarness {
  client: ServiceClient<typeof ClientsService>;
  /** Account deletion's part (interface.md 4.10). */
  developerData: ServiceClient<typeof DeveloperDataService>;
  /** Direct SQL on this file's database, to look at what was stored. */
  sql: pg.Pool;
  /** Every invalidation message published so far, parsed. */
  invalidations: { clientId: string; reason: string }[];
  secretHashKey: Buffer;
  close(): Promise<void>;
}

/** Builds and starts clients over real gRPC, subscribed to its invalidation channel. */
export async function startClients(
  environment: TestEnvironment,
  overrides: NodeJS.ProcessEnv = {},
): Promise<ClientsHarness> {
  const env = loadClientsEnv({
    ...serviceTestEnv(environment),
    REDIS_KEY_PREFIX: environment.redisPrefix,
    ...overrides,
  });
  const running = await startService(await buildClientsApp({ env, logger: testLogger() }), '127.0.0.1', 0);
  const channel = new GrpcChannel(`127.0.0.1:${running.grpcPort}`);
  const sql = openTestPool(environment.databaseUrl, 2);
  const subscriber = new Redis(environment.redisUrl);
  const invalidations: ClientsHarness['invalidations'] = [];
  subscriber.on('message', (_channel, message: string) => invalidations.push(JSON.parse(message)));
  await subscriber.subscribe(invalidationChannel(environment.redisPrefix));
  return {
    client: channel.service(ClientsService),
    developerData: channel.service(DeveloperDataService),
    sql,
    invalidations,
    secretHashKey: env.secretHashKey,
    async close() {
      channel.close();
      await running.close();
      subscriber.disconnect();
      await sql.end();
    },
  };
}

/** A developer as the gateway names it: ids from identity, which clients never calls. */
export function newOwner() {
  return { developerId: randomUUID(), realmId: randomUUID() };
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

/** Polls until `check` returns a value (pub/sub delivery is asynchronous). */
export async function eventually<T>(check: () => T | undefined, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
