import type { Logger } from 'pino';
import { EnvironmentError } from '../env/load-env.js';
import type { ServiceRuntimeConfig } from '../env/service-env.js';
import { createLogger } from '../logger/index.js';
import { startMetricsServer } from '../metrics/index.js';
import { ShutdownManager } from '../shutdown/index.js';
import { startTelemetry } from '../telemetry/index.js';
import { releaseMemoryWhenIdle } from './idle-memory.js';
import { startService, type ServiceApp } from './service-app.js';
import {
  STARTUP_DEPENDENCY_TIMEOUT_MS,
  postgresDependency,
  redisStartupDependency,
  waitForDependencies,
  type StartupDependency,
} from './wait-for-dependencies.js';

/** What a service's parsed environment carries: its runtime, and the stores it needs, if any. */
export interface ServiceMainEnv {
  runtime: ServiceRuntimeConfig;
  databaseUrl?: string;
  redisUrl?: string;
}

export interface ServiceMainOptions<Env extends ServiceMainEnv> {
  loadEnv: () => Env;
  build: (deps: { env: Env; logger: Logger }) => Promise<ServiceApp>;
}

/**
 * Process wiring shared by every gRPC service's main.ts: environment (exit 1 naming the bad
 * variable), tracing, logger, a bounded wait for Postgres and Redis, the gRPC server, the
 * metrics port, and SIGTERM/SIGINT handling.
 *
 * Shutdown runs last-opened-first: the metrics port, then the gRPC server, which refuses new
 * calls and drains in-flight ones before the app closes its pools and queues, then tracing.
 */
export async function runServiceMain<Env extends ServiceMainEnv>(
  options: ServiceMainOptions<Env>,
): Promise<void> {
  const env = loadEnvOrExit(options.loadEnv);
  const { runtime } = env;
  const logger = createLogger({ service: runtime.serviceName, level: runtime.logLevel });
  const shutdown = new ShutdownManager(logger);
  shutdown.listen();
  try {
    const telemetry = startTelemetry(runtime.serviceName, runtime.otlpEndpoint);
    shutdown.register('telemetry', () => telemetry.shutdown());
    await waitForStartupDependencies(startupDependencies(env), logger, shutdown);
    const app = await options.build({ env, logger });
    const running = await startService(app, runtime.grpcHost, runtime.grpcPort).catch(async (error) => {
      await app.close();
      throw error;
    });
    shutdown.register('grpc', () => running.close());
    const metrics = await startMetricsServer(app.metrics, runtime.metricsHost, runtime.metricsPort);
    shutdown.register('metrics', () => metrics.close());
    logger.info({ grpcPort: running.grpcPort, metricsPort: metrics.port }, 'service started');
    releaseMemoryWhenIdle();
  } catch (error) {
    if (shutdown.stopping) return;
    logger.fatal({ err: error }, 'service failed to start');
    await shutdown.shutdown('start-up failure').catch(() => undefined);
    process.exit(1);
  }
}

/** The stores a service's environment names: each must answer before the service builds. */
export function startupDependencies(env: { databaseUrl?: string; redisUrl?: string }): StartupDependency[] {
  return [
    ...(env.databaseUrl ? [postgresDependency(env.databaseUrl)] : []),
    ...(env.redisUrl ? [redisStartupDependency(env.redisUrl)] : []),
  ];
}

/**
 * The bounded start-up wait of a process main: a SIGTERM meanwhile ends it at once (the
 * shutdown manager then exits), a dependency still down after the bound fails the start.
 */
export async function waitForStartupDependencies(
  dependencies: readonly StartupDependency[],
  logger: Logger,
  shutdown: ShutdownManager,
  timeoutMs = STARTUP_DEPENDENCY_TIMEOUT_MS,
): Promise<void> {
  const waiting = new AbortController();
  shutdown.register('start-up wait', () => waiting.abort());
  await waitForDependencies(dependencies, { timeoutMs, log: logger, signal: waiting.signal });
}

export function loadEnvOrExit<Env>(load: () => Env): Env {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof EnvironmentError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
