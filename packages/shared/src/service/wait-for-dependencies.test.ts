import { connect, createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger/index.js';
import { baseDatabaseUrl, spareTestPort, testRedisUrl } from '../testing/index.js';
import {
  DependencyUnreachableError,
  postgresDependency,
  redisStartupDependency,
  waitForDependencies,
  type StartupDependency,
} from './wait-for-dependencies.js';

const log = createLogger({ service: 'test', level: 'silent' });
const forwarders: (() => void)[] = [];

afterEach(() => {
  for (const shut of forwarders.splice(0)) shut();
});

/** `url` moved to a port where nothing listens yet; `openAt` later forwards it to the real server. */
async function notYetListening(url: string) {
  const moved = new URL(url);
  const target = { host: moved.hostname, port: Number(moved.port) };
  moved.hostname = '127.0.0.1';
  moved.port = String(await spareTestPort());
  return {
    url: moved.toString(),
    /** Starts forwarding after `delayMs`, as a server finishing its own start-up would. */
    openAfter(delayMs: number) {
      setTimeout(() => forwarders.push(forward(Number(moved.port), target.host, target.port)), delayMs);
    },
  };
}

/** Listens on `port` and pipes every connection to host:targetPort; returns what closes it all. */
function forward(port: number, host: string, targetPort: number): () => void {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  server.listen(port, '127.0.0.1');
  return () => {
    server.close();
    for (const socket of sockets) socket.destroy();
  };
}

describe('waitForDependencies (bounded start-up retries)', () => {
  it('returns at once when Postgres and Redis answer', async () => {
    // At once: on the first attempt, so without a retry's wait and the line that announces it.
    const said: string[] = [];
    const recorder = {
      warn: (_: object, message: string) => said.push(message),
      info: (_: object, message: string) => said.push(message),
    };
    await waitForDependencies(
      [postgresDependency(baseDatabaseUrl()), redisStartupDependency(testRedisUrl())],
      { timeoutMs: 5000, log: recorder },
    );
    expect(said).toEqual([]);
  });

  it('keeps retrying until Postgres and Redis come up within the bound', async () => {
    const database = await notYetListening(baseDatabaseUrl());
    const cache = await notYetListening(testRedisUrl());
    database.openAfter(1200);
    cache.openAfter(600);
    const started = Date.now();
    await waitForDependencies([postgresDependency(database.url), redisStartupDependency(cache.url)], {
      timeoutMs: 10_000,
      log,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1200);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('gives up after the bound with an error naming the dependency and where, never the URL', async () => {
    const database = await notYetListening('postgresql://app:s3cret-password@127.0.0.1:5432/authz');
    const port = new URL(database.url).port;
    const started = Date.now();
    const waiting = waitForDependencies([postgresDependency(database.url)], { timeoutMs: 1500, log });
    await expect(waiting).rejects.toThrow(DependencyUnreachableError);
    await expect(waiting).rejects.toThrow(
      new RegExp(`^database \\(127\\.0\\.0\\.1:${port}\\) still unreachable after \\d+ s: .*ECONNREFUSED`),
    );
    await expect(waiting).rejects.not.toThrow(/s3cret/);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(500);
    expect(elapsed).toBeLessThan(3000);
  });

  it('stops waiting at once when the process is asked to stop', async () => {
    const never: StartupDependency = {
      name: 'database',
      where: '127.0.0.1:1',
      probe: () => Promise.reject(new Error('refused')),
    };
    const stop = new AbortController();
    const waiting = waitForDependencies([never], { timeoutMs: 60_000, log, signal: stop.signal });
    setTimeout(() => stop.abort(), 300);
    const started = Date.now();
    await expect(waiting).rejects.toThrow(/abort/i);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('logs the wait once when it begins, not once per attempt', async () => {
    const lines: string[] = [];
    const recorder = { warn: (_: object, message: string) => lines.push(message), info: () => undefined };
    let attempts = 0;
    const flaky: StartupDependency = {
      name: 'cache',
      where: '127.0.0.1:6379',
      probe: async () => {
        attempts += 1;
        if (attempts < 5) throw new Error('ECONNREFUSED');
      },
    };
    await waitForDependencies([flaky], { timeoutMs: 5000, log: recorder, initialDelayMs: 10 });
    expect(attempts).toBe(5);
    expect(lines).toEqual(['waiting for dependency']);
  });
});
