import { probeService, serviceTestEnv, testLogger, useTestEnvironment } from '@authz/shared/testing';
import { describe, expect, it } from 'vitest';
import { buildClientsApp, loadClientsEnv } from './app.js';

const environment = useTestEnvironment();

describe('clients service', () => {
  it('serves HealthService and MetricsService over gRPC', async () => {
    const app = await buildClientsApp({
      env: loadClientsEnv(serviceTestEnv(environment)),
      logger: testLogger(),
    });
    const probe = await probeService(app);
    expect(probe.status).toBe('SERVING');
    expect(probe.dependencies).toEqual({ database: true, cache: true });
    expect(probe.metrics).toMatch(/^process_cpu_user_seconds_total\{service="clients"\} /m);
  });

  it('refuses a bad environment, naming the variable', () => {
    expect(() => loadClientsEnv({ ...serviceTestEnv(environment), SECRET_HASH_KEY: 'too-short' })).toThrow(
      /SECRET_HASH_KEY: /,
    );
  });
});
