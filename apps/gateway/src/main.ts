import { createLogger } from '@authz/shared/logger';
import { loadEnvOrExit } from '@authz/shared/service';
import { ShutdownManager } from '@authz/shared/shutdown';
import { startTelemetry } from '@authz/shared/telemetry';
import { buildGatewayApp } from './app.js';
import { loadGatewayEnv } from './config/env.js';

const env = loadEnvOrExit(() => loadGatewayEnv());
const logger = createLogger({ service: 'gateway', level: env.logLevel });
const shutdown = new ShutdownManager(logger);
shutdown.listen();

try {
  const telemetry = startTelemetry('gateway', env.otlpEndpoint);
  shutdown.register('telemetry', () => telemetry.shutdown());
  const gateway = await buildGatewayApp({ env, logger });
  shutdown.register('http', () => gateway.close());
  const address = await gateway.app.listen({ port: env.port, host: env.host });
  logger.info({ address, issuer: env.issuer }, 'gateway listening');
} catch (error) {
  logger.fatal({ err: error }, 'gateway failed to start');
  await shutdown.shutdown('start-up failure').catch(() => undefined);
  process.exit(1);
}
