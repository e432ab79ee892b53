import { DEFAULT_GRPC_PORT_BASE, DEFAULT_METRICS_PORT_BASE } from '@authz/shared/topology';
import { z } from 'zod';
import { findRepositoryRoot, resolveDataDir } from './paths.js';

/** Replicas 2.. take the ports after the six services' (base + 7, 8, 9). */
export const MAX_OAUTH_REPLICAS = 4;

const port = () => z.coerce.number().int().min(1).max(65535);
const seconds = (fallback: number) => z.coerce.number().positive().default(fallback);
const url = (schemes: string[]) =>
  z
    .string()
    .refine(
      (value) => schemes.some((scheme) => value.startsWith(`${scheme}://`)),
      `expected a ${schemes.join(' or ')} URL`,
    );

/** What the launcher itself reads; everything else passes through to the services untouched. */
const schema = z.object({
  PORT: port().default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  JWT_ISSUER: z.string().min(1).optional(),
  GRPC_PORT_BASE: port().default(DEFAULT_GRPC_PORT_BASE),
  GRPC_HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_PORT_BASE: port().default(DEFAULT_METRICS_PORT_BASE),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: url(['postgres', 'postgresql']).optional(),
  REDIS_URL: url(['redis', 'rediss']).optional(),
  SMTP_URL: url(['smtp', 'smtps']).optional(),
  AUTHZ_START_TIMEOUT: seconds(180),
  AUTHZ_STOP_GRACE: seconds(10),
  /** How many oauth processes to run behind the gateway (docs/operations.md). */
  OAUTH_REPLICAS: z.coerce.number().int().min(1).max(MAX_OAUTH_REPLICAS).default(1),
  /** After a replica restart, how long its callers get to reconnect before the next one stops. */
  AUTHZ_REPLICA_SETTLE: z.coerce.number().nonnegative().default(5),
});

export interface LauncherConfig {
  root: string;
  dataDir: string;
  port: number;
  host: string;
  issuer: string;
  grpcPortBase: number;
  grpcHost: string;
  metricsPortBase: number;
  logLevel: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  startTimeoutMs: number;
  stopGraceMs: number;
  oauthReplicas: number;
  replicaSettleMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): LauncherConfig {
  // Empty variables count as unset, as shells and CI files often leave them.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  - ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${problems.join('\n')}`);
  }
  const values = parsed.data;
  const root = findRepositoryRoot(env);
  return {
    root,
    dataDir: resolveDataDir(root, env),
    port: values.PORT,
    host: values.HOST,
    issuer: values.JWT_ISSUER ?? `http://localhost:${values.PORT}`,
    grpcPortBase: values.GRPC_PORT_BASE,
    grpcHost: values.GRPC_HOST,
    metricsPortBase: values.METRICS_PORT_BASE,
    logLevel: values.LOG_LEVEL,
    databaseUrl: values.DATABASE_URL,
    redisUrl: values.REDIS_URL,
    smtpUrl: values.SMTP_URL,
    startTimeoutMs: values.AUTHZ_START_TIMEOUT * 1000,
    stopGraceMs: values.AUTHZ_STOP_GRACE * 1000,
    oauthReplicas: values.OAUTH_REPLICAS,
    replicaSettleMs: values.AUTHZ_REPLICA_SETTLE * 1000,
  };
}

/** Where to connect to something bound to `host` (a wildcard bind is reached on loopback). */
export function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
