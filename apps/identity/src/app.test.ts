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

  it('caps password hashing at 2 at once and 64 waiting unless told otherwise (docs/identity.md #16)', () => {
    const base = serviceTestEnv(environment);
    expect(loadIdentityEnv(base).passwordHashing).toEqual({
      concurrency: 2,
      queue: 64,
      retryAfterSeconds: 1,
    });
    expect(
      loadIdentityEnv({ ...base, ARGON2_CONCURRENCY: '1', ARGON2_QUEUE: '0' }).passwordHashing,
    ).toMatchObject({ concurrency: 1, queue: 0 });
    expect(() => loadIdentityEnv({ ...base, ARGON2_CONCURRENCY: '0' })).toThrow(/ARGON2_CONCURRENCY: /);
    expect(() => loadIdentityEnv({ ...base, ARGON2_QUEUE: '-1' })).toThrow(/ARGON2_QUEUE: /);
    expect(() => loadIdentityEnv({ ...base, ARGON2_QUEUE: '1.5' })).toThrow(/ARGON2_QUEUE: /);
  });
});
