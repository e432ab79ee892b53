import { probeService, serviceTestEnv, testLogger, useTestEnvironment } from '@authz/shared/testing';
import { describe, expect, it } from 'vitest';
import { buildIdentityApp, loadIdentityEnv } from './app.js';

const environment = useTestEnvironment();

describe('identity service', () => {
  it('serves HealthService and MetricsService over gRPC', async () => {
    const app = await buildIdentityApp({
      env: loadIdentityEnv({ ...serviceTestEnv(environment), REDIS_KEY_PREFIX: environment.redisPrefix }),
      logger: testLogger(),
    });
    const probe = await probeService(app);
    expect(probe.status).toBe('SERVING');
    expect(probe.dependencies).toEqual({ database: true, cache: true });
    expect(probe.metrics).toMatch(/^process_cpu_user_seconds_total\{service="identity"\} /m);
  });

  it('refuses a bad environment, naming the variable', () => {
    expect(() =>
      loadIdentityEnv({ ...serviceTestEnv(environment), DATABASE_URL: 'mysql://localhost/x' }),
    ).toThrow(/DATABASE_URL: /);
  });
});
