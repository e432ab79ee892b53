import { createLogger } from '@authz/shared/logger';
import {
  loadEnvOrExit,
  redisStartupDependency,
  releaseMemoryWhenIdle,
  waitForStartupDependencies,
} from '@authz/shared/service';
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
  // Bounded: Redis must answer within the start-up window (docs/operations.md "Fault behaviour").
  await waitForStartupDependencies([redisStartupDependency(env.redisUrl)], logger, shutdown);
  const gateway = await buildGatewayApp({ env, logger });
  // On SIGTERM: stop accepting connections, let in-flight requests finish, then close the
  // gRPC channels and Redis (Fastify runs its onClose hooks once the server has drained).
  // A keep-alive connection whose request was in flight would otherwise stay open until its
  // idle timeout and hold the drain: its response says `Connection: close` (RFC 9112 9.6).
  let draining = false;
  gateway.app.addHook('onSend', (_request, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  shutdown.register('http', () => {
    draining = true;
    return gateway.close();
  });
  const address = await gateway.app.listen({ port: env.port, host: env.host });
  logger.info({ address, issuer: env.issuer }, 'gateway listening');
  releaseMemoryWhenIdle();
} catch (error) {
  if (!shutdown.stopping) {
    logger.fatal({ err: error }, 'gateway failed to start');
    await shutdown.shutdown('start-up failure').catch(() => undefined);
    process.exit(1);
  }
}
