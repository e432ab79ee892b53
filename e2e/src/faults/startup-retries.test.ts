import { randomBytes } from 'node:crypto';
import { HealthService, ServingStatus } from '@authz/proto/health/v1/health';
import { GrpcChannel } from '@authz/shared/grpc';
import { spareTestPort, useTestEnvironment } from '@authz/shared/testing';
import { afterEach, expect, it } from 'vitest';
import type { TcpProxy } from '../support/tcp-proxy.js';
import { AppProcess, connectionRefused, databaseBehindProxy } from './fault-helpers.js';

// Start-up waits for its dependencies with bounded retries (docs/operations.md "Start-up"): an oauth process
// started while its Postgres is unreachable waits, retrying, and starts serving as soon as the
// database answers, with no restart. Giving up after the bound, with an error naming the
// dependency, is shown with a short bound by packages/shared/src/service/wait-for-dependencies.test.ts.
const environment = useTestEnvironment();
const cleanups: (() => Promise<unknown>)[] = [];
/** Real processes start in seconds, more on a busy two-core machine. */
const PROCESSES = { timeout: 60_000 };

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function oauthBehind(proxy: TcpProxy, databaseUrl: string) {
  const grpcPort = await spareTestPort();
  const oauth = new AppProcess('oauth', {
    DATABASE_URL: databaseUrl,
    REDIS_URL: environment.redisUrl,
    REDIS_KEY_PREFIX: environment.redisPrefix,
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SECRET_HASH_KEY: randomBytes(32).toString('hex'),
    JWT_ISSUER: 'http://127.0.0.1:3000',
    // Nothing is called during start-up; these only have to be valid addresses.
    IDENTITY_GRPC_URL: '127.0.0.1:1',
    CLIENTS_GRPC_URL: '127.0.0.1:1',
    OAUTH_GRPC_PORT: String(grpcPort),
    OAUTH_METRICS_PORT: String(await spareTestPort()),
  });
  cleanups.push(
    () => oauth.stop(),
    () => proxy.close(),
  );
  return { oauth, grpcPort };
}

it('waits for an unreachable Postgres, then starts serving once it answers', PROCESSES, async () => {
  const { proxy, databaseUrl } = await databaseBehindProxy(environment);
  proxy.cut();
  const { oauth, grpcPort } = await oauthBehind(proxy, databaseUrl);

  await oauth.waitForMessage('waiting for dependency');
  const waiting = oauth.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(waiting.find((line) => line.msg === 'waiting for dependency')).toMatchObject({
    level: 'warn',
    dependency: 'database',
    where: `127.0.0.1:${proxy.port}`,
  });
  // Not serving while it waits: callers see a refused connection, not a half-started service.
  expect(await connectionRefused(grpcPort)).toBe(true);
  // Still waiting a while later (the database stays down for a few retries).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(oauth.running).toBe(true);
  expect(oauth.messages).not.toContain('service started');

  proxy.restore();
  await oauth.waitForMessage('service started');
  expect(oauth.messages).toContain('dependency reachable');
  const channel = new GrpcChannel(`127.0.0.1:${grpcPort}`);
  cleanups.push(async () => channel.close());
  const health = await channel.service(HealthService).check({});
  expect(health.status).toBe(ServingStatus.SERVING);
  // Nothing on the way logs the connection string, which may hold a password.
  expect(oauth.lines.join('\n')).not.toContain(databaseUrl);
});

it('stops at once and cleanly when asked to while it waits', PROCESSES, async () => {
  const { proxy, databaseUrl } = await databaseBehindProxy(environment);
  proxy.cut();
  const { oauth } = await oauthBehind(proxy, databaseUrl);
  await oauth.waitForMessage('waiting for dependency');

  const stopping = Date.now();
  oauth.signal('SIGTERM');
  expect(await oauth.exited).toEqual({ code: 0, signal: null });
  expect(Date.now() - stopping).toBeLessThan(5000);
  expect(oauth.messages).not.toContain('service failed to start');
});
