import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { childEnvironment, oauthReplicaEnvironment, oauthReplicaPorts, servicePorts } from './service-env.js';

const backends = {
  databaseUrl: 'postgresql://u:p@127.0.0.1:1/authz',
  redisUrl: 'redis://:p@127.0.0.1:2',
  smtpUrl: 'smtp://127.0.0.1:3',
  keyEncryptionKey: 'a'.repeat(64),
  secretHashKey: 'b'.repeat(64),
};

describe('service environment', () => {
  it('uses the topology: base + index, with per-service overrides', () => {
    const env = { GRPC_PORT_BASE: '41000', METRICS_PORT_BASE: '42000', OAUTH_GRPC_PORT: '43000' };
    const ports = servicePorts(loadConfig(env), env);
    expect(ports.find((service) => service.name === 'identity')).toMatchObject({
      grpcPort: 41001,
      metricsPort: 42001,
    });
    expect(ports.find((service) => service.name === 'oauth')).toMatchObject({
      grpcPort: 43000,
      metricsPort: 42002,
    });
  });

  it('gives every process the backends, secrets, issuer and each gRPC address', () => {
    const env = {
      PORT: '4000',
      GRPC_PORT_BASE: '41000',
      OAUTH_GRPC_PORT: '43000',
      CLIENTS_GRPC_URL: 'elsewhere:1',
      EXTRA: 'kept',
    };
    const child = childEnvironment(loadConfig(env), backends, env);
    expect(child).toMatchObject({
      EXTRA: 'kept',
      PORT: '4000',
      HOST: '127.0.0.1',
      JWT_ISSUER: 'http://localhost:4000',
      DATABASE_URL: backends.databaseUrl,
      REDIS_URL: backends.redisUrl,
      SMTP_URL: backends.smtpUrl,
      KEY_ENCRYPTION_KEY: backends.keyEncryptionKey,
      SECRET_HASH_KEY: backends.secretHashKey,
      IDENTITY_GRPC_URL: '127.0.0.1:41001',
      OAUTH_GRPC_URL: '127.0.0.1:43000',
      CLIENTS_GRPC_URL: 'elsewhere:1',
      CONSENT_UI_GRPC_URL: '127.0.0.1:41004',
      WALLET_BRIDGE_GRPC_URL: '127.0.0.1:41005',
    });
    expect(child).not.toHaveProperty('MAILER_WORKER_GRPC_URL');
  });

  it('runs OAUTH_REPLICAS oauth processes on the ports after the services, every caller listing them all', () => {
    const env = { GRPC_PORT_BASE: '41000', METRICS_PORT_BASE: '42000', OAUTH_REPLICAS: '3' };
    const config = loadConfig(env);
    expect(oauthReplicaPorts(config)).toEqual([
      { replica: 2, grpcPort: 41007, metricsPort: 42007 },
      { replica: 3, grpcPort: 41008, metricsPort: 42008 },
    ]);
    const child = childEnvironment(config, backends, env);
    expect(child.OAUTH_GRPC_URL).toBe('ipv4:127.0.0.1:41002,127.0.0.1:41007,127.0.0.1:41008');
    expect(oauthReplicaEnvironment(child, oauthReplicaPorts(config)[0]!)).toMatchObject({
      OAUTH_GRPC_PORT: '41007',
      OAUTH_METRICS_PORT: '42007',
      OAUTH_GRPC_URL: child.OAUTH_GRPC_URL,
      DATABASE_URL: backends.databaseUrl,
    });
  });

  it('keeps a single oauth address by default, and an OAUTH_GRPC_URL given by the caller', () => {
    expect(oauthReplicaPorts(loadConfig({}))).toEqual([]);
    expect(childEnvironment(loadConfig({}), backends, {}).OAUTH_GRPC_URL).toBe('127.0.0.1:50052');
    const given = { OAUTH_REPLICAS: '2', OAUTH_GRPC_URL: 'dns:///oauth:50052' };
    expect(childEnvironment(loadConfig(given), backends, given).OAUTH_GRPC_URL).toBe('dns:///oauth:50052');
    expect(() => loadConfig({ OAUTH_REPLICAS: '5' })).toThrow(/OAUTH_REPLICAS/);
  });

  it('names the variable when the launcher environment is invalid', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL: expected a postgres or postgresql URL/,
    );
  });
});
