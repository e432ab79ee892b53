import type { Logger } from 'pino';
import { EnvironmentError } from '../env/load-env.js';
import type { ServiceRuntimeConfig } from '../env/service-env.js';
import { createLogger } from '../logger/index.js';
import { startMetricsServer } from '../metrics/index.js';
import { ShutdownManager } from '../shutdown/index.js';
import { startTelemetry } from '../telemetry/index.js';
import { startService, type ServiceApp } from './service-app.js';

export interface ServiceMainOptions<Env extends { runtime: ServiceRuntimeConfig }> {
  loadEnv: () => Env;
  build: (deps: { env: Env; logger: Logger }) => Promise<ServiceApp>;
}

/**
 * Process wiring shared by every gRPC service's main.ts: environment (exit 1 naming the bad
 * variable), tracing, logger, the gRPC server, the metrics port, and SIGTERM/SIGINT handling.
 */
export async function runServiceMain<Env extends { runtime: ServiceRuntimeConfig }>(
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
    const app = await options.build({ env, logger });
    const running = await startService(app, runtime.grpcHost, runtime.grpcPort);
    shutdown.register('grpc', () => running.close());
    const metrics = await startMetricsServer(app.metrics, runtime.metricsHost, runtime.metricsPort);
    shutdown.register('metrics', () => metrics.close());
    logger.info({ grpcPort: running.grpcPort, metricsPort: metrics.port }, 'service started');
  } catch (error) {
    logger.fatal({ err: error }, 'service failed to start');
    await shutdown.shutdown('start-up failure').catch(() => undefined);
    process.exit(1);
  }
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
