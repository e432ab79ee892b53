import { randomBytes } from 'node:crypto';
import { HealthService, ServingStatus } from '@authz/proto/health/v1/health';
import { MetricsService } from '@authz/proto/metrics/v1/metrics';
import { GrpcChannel } from '../grpc/channel.js';
import { createLogger, type Logger } from '../logger/index.js';
import { startService, type ServiceApp } from '../service/service-app.js';
import type { TestEnvironment } from './test-environment.js';

/** A logger for tests: silent unless TEST_LOG_LEVEL asks for output. */
export function testLogger(service = 'test'): Logger {
  return createLogger({ service, level: process.env.TEST_LOG_LEVEL ?? 'silent' });
}

/** Every variable a service may require, pointing at this test file's database and Redis. */
export function serviceTestEnv(environment: TestEnvironment): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: environment.databaseUrl,
    REDIS_URL: environment.redisUrl,
    REDIS_KEY_PREFIX: environment.redisPrefix,
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SECRET_HASH_KEY: randomBytes(32).toString('hex'),
    JWT_ISSUER: 'http://localhost:3000',
    SMTP_URL: 'smtp://127.0.0.1:2525',
  };
}

export interface ServiceProbe {
  status: 'SERVING' | 'NOT_SERVING' | 'UNSPECIFIED';
  dependencies: Record<string, boolean>;
  metrics: string;
}

/**
 * Starts a built service on a spare port and asks it, over real gRPC, what every service
 * answers: HealthService.Check and MetricsService.Collect. Closes it afterwards.
 */
export async function probeService(app: ServiceApp): Promise<ServiceProbe> {
  const running = await startService(app, '127.0.0.1', 0);
  const channel = new GrpcChannel(`127.0.0.1:${running.grpcPort}`);
  try {
    const health = await channel.service(HealthService).check({});
    const metrics = await channel.service(MetricsService).collect({});
    return {
      status: ServingStatus[health.status] as ServiceProbe['status'],
      dependencies: Object.fromEntries(health.dependencies.map(({ name, connected }) => [name, connected])),
      metrics: metrics.exposition,
    };
  } finally {
    channel.close();
    await running.close();
  }
}
