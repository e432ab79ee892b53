import { probeService, serviceTestEnv, testLogger, useTestEnvironment } from '@authz/shared/testing';
import { describe, expect, it } from 'vitest';
import { buildConsentUiApp, loadConsentUiEnv } from './app.js';

const environment = useTestEnvironment();

describe('consent-ui service', () => {
  it('serves HealthService and MetricsService over gRPC', async () => {
    const app = await buildConsentUiApp({
      env: loadConsentUiEnv(serviceTestEnv(environment)),
      logger: testLogger(),
    });
    const probe = await probeService(app);
    expect(probe.status).toBe('SERVING');
    expect(probe.dependencies).toEqual({});
    expect(probe.metrics).toMatch(/^process_cpu_user_seconds_total\{service="consent-ui"\} /m);
  });

  it('refuses a bad environment, naming the variable', () => {
    const env = serviceTestEnv(environment);
    expect(() => loadConsentUiEnv({ ...env, CONSENT_UI_GRPC_PORT: 'not-a-port' })).toThrow(
      /CONSENT_UI_GRPC_PORT: /,
    );
    expect(() => loadConsentUiEnv({ ...env, SECRET_HASH_KEY: 'too-short' })).toThrow(/SECRET_HASH_KEY: /);
    expect(() => loadConsentUiEnv({ ...env, SECRET_HASH_KEY: undefined })).toThrow(/SECRET_HASH_KEY: /);
  });
});
