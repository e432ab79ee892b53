import { probeService, serviceTestEnv, testLogger, useTestEnvironment } from '@authz/shared/testing';
import { describe, expect, it } from 'vitest';
import { buildOAuthApp, loadOAuthEnv } from './app.js';

const environment = useTestEnvironment();

describe('oauth service', () => {
  it('serves HealthService and MetricsService over gRPC', async () => {
    const app = await buildOAuthApp({ env: loadOAuthEnv(serviceTestEnv(environment)), logger: testLogger() });
    const probe = await probeService(app);
    expect(probe.status).toBe('SERVING');
    expect(probe.dependencies).toEqual({ database: true, cache: true });
    expect(probe.metrics).toMatch(/^process_cpu_user_seconds_total\{service="oauth"\} /m);
  });

  it('refuses a bad environment, naming the variable', () => {
    expect(() => loadOAuthEnv({ ...serviceTestEnv(environment), KEY_ENCRYPTION_KEY: 'too-short' })).toThrow(
      /KEY_ENCRYPTION_KEY: /,
    );
  });
});
