import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchEnv } from '../config/env.js';

const PROFILER_PRELOAD = pathToFileURL(
  join(import.meta.dirname, '..', 'profile', 'cpu-profiler-preload.js'),
).href;

/**
 * The launcher's environment: the bench database, a Redis key prefix of its own, the shipped
 * rate limits (docs/security.md #11: one client's full load must meet no 429), warnings only (unless BENCH_LOG_LEVEL=info), ports of its own and fixed secrets (no secrets file to keep).
 * NODE_ENV=production as in the container image, and for oidc-provider too.
 */
export function suiteEnvironment(
  env: BenchEnv,
  backends: { databaseUrl: string; redisPrefix: string; dataDir: string },
): NodeJS.ProcessEnv {
  const { ports } = env;
  return {
    ...env.inherited,
    NODE_ENV: 'production',
    PORT: String(ports.gateway),
    HOST: '127.0.0.1',
    JWT_ISSUER: `http://127.0.0.1:${ports.gateway}`,
    GRPC_PORT_BASE: String(ports.grpcBase),
    METRICS_PORT_BASE: String(ports.metricsBase),
    DATABASE_URL: backends.databaseUrl,
    REDIS_URL: env.redisUrl,
    REDIS_KEY_PREFIX: backends.redisPrefix,
    LOG_LEVEL: env.logLevel,
    AUTHZ_DATA_DIR: backends.dataDir,
    AUTHZ_START_TIMEOUT: String(env.startTimeoutMs / 1000),
    OAUTH_REPLICAS: String(env.oauthReplicas),
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SECRET_HASH_KEY: randomBytes(32).toString('hex'),
  };
}

/** When profiling, every Node process started gets the profiler preload (it picks the servers). */
export function profilerEnvironment(env: BenchEnv, profileDir: string | undefined): NodeJS.ProcessEnv {
  if (!profileDir) return {};
  const nodeOptions = [env.inherited.NODE_OPTIONS, `--import=${PROFILER_PRELOAD}`].filter(Boolean).join(' ');
  return { NODE_OPTIONS: nodeOptions, BENCH_CPU_PROF_DIR: profileDir };
}

/** Every port the run will listen on, checked up front so a clash names the setting to change. */
export async function checkPortsFree({ ports, oauthReplicas }: BenchEnv): Promise<void> {
  const wanted = [ports.gateway, ports.reference, ports.floor];
  // The six services, then oauth replicas 2.. on base + 7.. (infra/local service-env.ts).
  for (let n = 1; n <= 6 + oauthReplicas - 1; n += 1) wanted.push(ports.grpcBase + n, ports.metricsBase + n);
  const busy = [];
  for (const port of wanted) if (!(await isPortFree(port))) busy.push(port);
  if (busy.length > 0) throw new Error(`ports ${busy.join(', ')} are in use: choose another BENCH_PORT_BASE`);
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}
