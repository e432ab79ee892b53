import { probeService, serviceTestEnv, testLogger, useTestEnvironment } from '@authz/shared/testing';
import { describe, expect, it } from 'vitest';
import { buildMailerWorkerApp, loadMailerWorkerEnv } from './app.js';

const environment = useTestEnvironment();

describe('mailer-worker service', () => {
  it('serves HealthService and MetricsService over gRPC', async () => {
    const app = await buildMailerWorkerApp({
      env: loadMailerWorkerEnv({ ...serviceTestEnv(environment), REDIS_KEY_PREFIX: environment.redisPrefix }),
      logger: testLogger(),
    });
    const probe = await probeService(app);
    expect(probe.status).toBe('SERVING');
    expect(probe.dependencies).toEqual({ cache: true });
    expect(probe.metrics).toMatch(/^process_cpu_user_seconds_total\{service="mailer-worker"\} /m);
    expect(probe.metrics).toMatch(/^# TYPE mail_sent_total counter$/m);
  });

  it('refuses a bad environment, naming the variable', () => {
    expect(() =>
      loadMailerWorkerEnv({ ...serviceTestEnv(environment), SMTP_URL: 'http://mail.example' }),
    ).toThrow(/SMTP_URL: /);
  });
});
