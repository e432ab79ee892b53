import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { OPT_IN_SCENARIOS, SCENARIO_NAMES, type ScenarioName } from '../scenario-names.js';

/** The same servers `pnpm test` uses (docs/contract.md): the bench creates its own database there. */
const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const schema = z.object({
  /** Where `authz_bench_<BENCH_PORT_BASE>` is created (and dropped): any database of the server will do. */
  DATABASE_URL: z.string().startsWith('postgres').default(DEFAULT_DATABASE_URL),
  /** Shared Redis; every key of the run gets a prefix of its own and is deleted after. */
  REDIS_URL: z.string().startsWith('redis').default(DEFAULT_REDIS_URL),
  /** Measured seconds of each scenario, after a warm-up of BENCH_WARMUP seconds. */
  BENCH_DURATION: positiveInt(10),
  BENCH_WARMUP: positiveInt(2),
  BENCH_CONNECTIONS: positiveInt(50),
  /**
   * Requests per second offered in all, spread over the connections (autocannon's
   * overallRate); unset, each connection sends its next request as soon as the last is
   * answered. A rate the servers keep up with measures what a request costs them (server CPU
   * ms/req) without the contention of a saturated machine (docs/performance.md "Settings").
   */
  BENCH_RATE: z.coerce.number().int().positive().optional(),
  /** Gateway on BASE, gRPC ports BASE+11.., metrics BASE+21.., oidc-provider on BASE+30, the floor on BASE+31. */
  BENCH_PORT_BASE: z.coerce.number().int().min(1024).max(65000).default(4400),
  /**
   * When set, gateway, oauth and oidc-provider are profiled into this folder (relative to the
   * repository root, e.g. `.data/profiles`) and their hot spots are printed.
   */
  BENCH_CPU_PROF_DIR: z.string().min(1).optional(),
  /** Seconds the suite may take to answer /health 200. */
  BENCH_START_TIMEOUT: positiveInt(180),
  /**
   * Comma-separated scenarios to run on the suite (client_credentials, client_credentials_dpop,
   * introspection, userinfo, jwks, discovery); all of those by default. oidc-provider and the
   * floor server run whenever client_credentials does.
   * replica_restart runs only when named here.
   */
  BENCH_SCENARIOS: z
    .string()
    .transform((value) => value.split(',').map((name) => name.trim()))
    .pipe(z.array(z.enum([...SCENARIO_NAMES, ...OPT_IN_SCENARIOS])).min(1))
    .optional(),
  /** oauth processes behind the gateway (the launcher's OAUTH_REPLICAS); 2 when replica_restart runs. */
  BENCH_OAUTH_REPLICAS: z.coerce.number().int().min(1).max(4).optional(),
  /**
   * client_credentials rounds, each on the suite, then oidc-provider, then the floor; above 1,
   * all three stay up (the idle ones use no CPU) and the verdict takes the round of median
   * suite / oidc-provider ratio (rounds.ts). Five by default: one round can be off by a third
   * on a shared machine, the median of five rarely is.
   */
  BENCH_ROUNDS: z.coerce.number().int().min(1).max(20).default(5),
  /** The suite's LOG_LEVEL: warn logs nothing per request; info adds Fastify's request lines. */
  BENCH_LOG_LEVEL: z.enum(['warn', 'info']).default('warn'),
});

export interface BenchEnv {
  root: string;
  databaseUrl: string;
  redisUrl: string;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  /** Offered requests per second, or undefined for as many as the connections get answered. */
  rate: number | undefined;
  ports: { gateway: number; grpcBase: number; metricsBase: number; reference: number; floor: number };
  cpuProfileDir: string | undefined;
  startTimeoutMs: number;
  logLevel: 'warn' | 'info';
  /** The suite scenarios to run, in their usual order. */
  scenarios: ScenarioName[];
  oauthReplicas: number;
  rounds: number;
  /** What the suite's launcher inherits, minus settings that would point it at another suite. */
  inherited: NodeJS.ProcessEnv;
}

export function loadBenchEnv(source: NodeJS.ProcessEnv = process.env): BenchEnv {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  - ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${problems.join('\n')}`);
  }
  const values = parsed.data;
  const base = values.BENCH_PORT_BASE;
  const root = repositoryRoot();
  return {
    root,
    databaseUrl: values.DATABASE_URL,
    redisUrl: values.REDIS_URL,
    durationSeconds: values.BENCH_DURATION,
    warmupSeconds: values.BENCH_WARMUP,
    connections: values.BENCH_CONNECTIONS,
    rate: values.BENCH_RATE,
    ports: {
      gateway: base,
      grpcBase: base + 10,
      metricsBase: base + 20,
      reference: base + 30,
      floor: base + 31,
    },
    cpuProfileDir: values.BENCH_CPU_PROF_DIR ? resolve(root, values.BENCH_CPU_PROF_DIR) : undefined,
    startTimeoutMs: values.BENCH_START_TIMEOUT * 1000,
    logLevel: values.BENCH_LOG_LEVEL,
    scenarios: [
      ...SCENARIO_NAMES.filter((name) => values.BENCH_SCENARIOS?.includes(name) ?? true),
      ...OPT_IN_SCENARIOS.filter((name) => values.BENCH_SCENARIOS?.includes(name)),
    ],
    oauthReplicas:
      values.BENCH_OAUTH_REPLICAS ?? (values.BENCH_SCENARIOS?.includes('replica_restart') ? 2 : 1),
    rounds: values.BENCH_ROUNDS,
    inherited: Object.fromEntries(
      Object.entries(source).filter(
        ([name]) => !/_(GRPC_URL|GRPC_PORT|METRICS_PORT)$|^SMTP_URL$|^OAUTH_REPLICAS$/.test(name),
      ),
    ),
  };
}

/** What the oidc-provider child reads (reference/reference-server.ts). */
export function loadReferenceEnv(source: NodeJS.ProcessEnv = process.env) {
  return z
    .object({
      REFERENCE_PORT: z.coerce.number().int().min(1).max(65535),
      REFERENCE_CLIENT_ID: z.string().min(1),
      REFERENCE_CLIENT_SECRET: z.string().min(32),
    })
    .parse(source);
}

/** What the floor server child reads (floor/floor-server.ts). */
export function loadFloorEnv(source: NodeJS.ProcessEnv = process.env) {
  return z
    .object({
      FLOOR_PORT: z.coerce.number().int().min(1).max(65535),
      FLOOR_CLIENT_ID: z.string().min(1),
      FLOOR_CLIENT_SECRET: z.string().min(32),
    })
    .parse(source);
}

function repositoryRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (dirname(dir) === dir) throw new Error('pnpm-workspace.yaml not found above the bench');
  }
}
