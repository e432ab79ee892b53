import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EnvironmentError, envBoolean, envHexKey32, loadEnv, loadEnvParts } from './index.js';
import { serviceRuntimeSchema, serviceUrlsSchema } from './service-env.js';

describe('environment loading', () => {
  it('accepts true/false/1/0 booleans and names a bad variable', () => {
    const schema = z.object({ FLAG: envBoolean(false) });
    expect(loadEnv(schema, { FLAG: '1' })).toEqual({ FLAG: true });
    expect(loadEnv(schema, {})).toEqual({ FLAG: false });
    expect(() => loadEnv(schema, { FLAG: 'yes' })).toThrow(/FLAG: expected true, false, 1 or 0/);
  });

  it('reports every problem of every part at once', () => {
    const failure = (() => {
      try {
        loadEnvParts(
          { a: z.object({ SECRET_HASH_KEY: envHexKey32() }), b: z.object({ PORT: z.coerce.number().int() }) },
          { SECRET_HASH_KEY: 'short', PORT: 'x' },
        );
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(EnvironmentError);
    expect((failure as EnvironmentError).problems).toEqual([
      'SECRET_HASH_KEY: expected 64 hex characters (32 random bytes)',
      expect.stringMatching(/^PORT: /),
    ]);
  });

  it('derives service ports from the bases and honours per-service overrides', () => {
    expect(loadEnv(serviceRuntimeSchema('oauth'), {})).toMatchObject({ grpcPort: 50052, metricsPort: 9402 });
    expect(
      loadEnv(serviceRuntimeSchema('oauth'), { GRPC_PORT_BASE: '6000', OAUTH_METRICS_PORT: '7001' }),
    ).toMatchObject({ grpcPort: 6002, metricsPort: 7001 });
    expect(() => loadEnv(serviceRuntimeSchema('oauth'), { OAUTH_GRPC_PORT: 'x' })).toThrow(/OAUTH_GRPC_PORT/);
  });

  it('resolves where other services are reached', () => {
    expect(
      loadEnv(serviceUrlsSchema(['identity', 'clients'] as const), {
        CLIENTS_GRPC_URL: 'dns:///clients:50053',
      }),
    ).toEqual({ identity: '127.0.0.1:50051', clients: 'dns:///clients:50053' });
  });
});
