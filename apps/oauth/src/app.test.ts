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

  it('reads token lifetimes and the Redis prefix, with defaults', () => {
    const { REDIS_KEY_PREFIX: _prefix, ...withoutPrefix } = serviceTestEnv(environment);
    expect(loadOAuthEnv(withoutPrefix)).toMatchObject({
      accessTokenTtlSeconds: 900,
      refreshTokenTtlSeconds: 2_592_000,
      redisKeyPrefix: '',
    });
    const custom = loadOAuthEnv({
      ...serviceTestEnv(environment),
      ACCESS_TOKEN_TTL: '300',
      REFRESH_TOKEN_TTL: '3600',
      REDIS_KEY_PREFIX: 'authz:',
    });
    expect(custom).toMatchObject({
      accessTokenTtlSeconds: 300,
      refreshTokenTtlSeconds: 3600,
      redisKeyPrefix: 'authz:',
    });
    expect(() => loadOAuthEnv({ ...serviceTestEnv(environment), ACCESS_TOKEN_TTL: '0' })).toThrow(
      /ACCESS_TOKEN_TTL: /,
    );
  });

  it('refuses a bad environment, naming the variable', () => {
    expect(() => loadOAuthEnv({ ...serviceTestEnv(environment), KEY_ENCRYPTION_KEY: 'too-short' })).toThrow(
      /KEY_ENCRYPTION_KEY: /,
    );
  });
});
