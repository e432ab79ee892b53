import { HealthService } from '@authz/proto/health/v1/health';
import { MetricsService } from '@authz/proto/metrics/v1/metrics';
import { GrpcServer } from '@authz/shared/grpc';
import { healthServiceImplementation } from '@authz/shared/health';
import type { Logger } from '@authz/shared/logger';
import { createMetricsRegistry, metricsServiceImplementation } from '@authz/shared/metrics';
import type { ServiceApp } from '@authz/shared/service';
import type { ConsentUiEnv } from './config/env.js';

export interface ConsentUiDeps {
  env: ConsentUiEnv;
  logger: Logger;
}

/** Builds the consent-ui service: server-rendered hosted pages (login, consent, resume, wallet screens); stateless. */
export async function buildConsentUiApp({ logger }: ConsentUiDeps): Promise<ServiceApp> {
  const metrics = createMetricsRegistry('consent-ui');
  const server = new GrpcServer({ serviceName: 'consent-ui', logger })
    .addService(HealthService, healthServiceImplementation({}))
    .addService(MetricsService, metricsServiceImplementation(metrics));
  return {
    server,
    metrics,
    close: async () => undefined,
  };
}

export { loadConsentUiEnv, type ConsentUiEnv } from './config/env.js';
