import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

/** Something a process cannot serve without, probed once per start-up attempt. */
export interface StartupDependency {
  /** "database", "cache": the names /health reports. */
  name: string;
  /** host:port, for messages: never the URL, which may hold a password. */
  where: string;
  /** Resolves once the dependency answers a real request, rejects otherwise. */
  probe(): Promise<void>;
}

export interface WaitOptions {
  /** Gives up after this long (the bound of the bounded retries). */
  timeoutMs: number;
  log: { warn(object: object, message: string): void; info(object: object, message: string): void };
  /** A stop request (SIGTERM during start-up) ends the wait at once. */
  signal?: AbortSignal;
  /** First pause between attempts; doubles up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/** How long a process waits for its Postgres and Redis before it exits naming them. */
export const STARTUP_DEPENDENCY_TIMEOUT_MS = 30_000;

const PROBE_TIMEOUT_MS = 2000;

/** A dependency still down when the bound ran out: the message names it and its last error. */
export class DependencyUnreachableError extends Error {
  constructor(
    readonly dependency: StartupDependency,
    elapsedMs: number,
    cause: unknown,
  ) {
    super(
      `${dependency.name} (${dependency.where}) still unreachable after ${Math.round(elapsedMs / 1000)} s: ` +
        describe(cause),
      { cause },
    );
    this.name = 'DependencyUnreachableError';
  }
}

/**
 * Start-up waits for what the process needs, with bounded retries (issue "graceful start-up"):
 * docker compose and Kubernetes start everything at once, so a service often comes up before
 * Postgres or Redis accepts connections. Every dependency is retried with a capped exponential
 * backoff until it answers; past `timeoutMs` the process gives up with an error naming the
 * dependency, so an orchestrator restarts it and an operator sees why.
 */
export async function waitForDependencies(
  dependencies: readonly StartupDependency[],
  options: WaitOptions,
): Promise<void> {
  await Promise.all(dependencies.map((dependency) => waitFor(dependency, options)));
}

async function waitFor(dependency: StartupDependency, options: WaitOptions): Promise<void> {
  const { timeoutMs, log, signal, initialDelayMs = 200, maxDelayMs = 2000 } = options;
  const started = Date.now();
  let delay = initialDelayMs;
  let lastReport = 0;
  for (let attempt = 1; ; attempt += 1) {
    signal?.throwIfAborted();
    try {
      await dependency.probe();
      if (attempt > 1) log.info({ dependency: dependency.name, attempt }, 'dependency reachable');
      return;
    } catch (error) {
      const elapsed = Date.now() - started;
      if (elapsed + delay > timeoutMs) throw new DependencyUnreachableError(dependency, elapsed, error);
      // One line when the wait begins, then one every five seconds, not one per attempt.
      if (attempt === 1 || Date.now() - lastReport >= 5000) {
        lastReport = Date.now();
        log.warn(
          { dependency: dependency.name, where: dependency.where, attempt, reason: describe(error) },
          'waiting for dependency',
        );
      }
    }
    await sleep(delay, undefined, signal ? { signal } : undefined);
    delay = Math.min(delay * 2, maxDelayMs);
  }
}

/** PostgreSQL answers `SELECT 1` (a server still starting up refuses queries, not just TCP). */
export function postgresDependency(connectionString: string): StartupDependency {
  return {
    name: 'database',
    where: hostAndPort(connectionString, 5432),
    async probe() {
      // Loaded here: the services without a database never hold pg (docs/performance.md, "Memory").
      const { default: pg } = await import('pg');
      const client = new pg.Client({
        connectionString,
        connectionTimeoutMillis: PROBE_TIMEOUT_MS,
        query_timeout: PROBE_TIMEOUT_MS,
      });
      // A connection lost after connect() would otherwise be an unhandled 'error' event.
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('SELECT 1');
      } finally {
        await client.end().catch(() => undefined);
      }
    },
  };
}

/** Redis answers PING. One connection attempt per probe: the loop above does the retrying. */
export function redisStartupDependency(url: string): StartupDependency {
  return {
    name: 'cache',
    where: hostAndPort(url, 6379),
    async probe() {
      const client = new Redis(url, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        connectTimeout: PROBE_TIMEOUT_MS,
        commandTimeout: PROBE_TIMEOUT_MS,
        retryStrategy: () => null,
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.ping();
      } finally {
        client.disconnect();
      }
    },
  };
}

function hostAndPort(url: string, defaultPort: number): string {
  try {
    const { hostname, port } = new URL(url);
    return `${hostname || 'localhost'}:${port || defaultPort}`;
  } catch {
    return 'an unparsable URL';
  }
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
