import { SERVICES, type ServiceName } from '@authz/shared/topology';
import type { LauncherConfig } from './config.js';

export interface ServicePorts {
  name: ServiceName;
  envPrefix: string;
  grpcPort: number;
  metricsPort: number;
}

/** The worker only consumes the mail queue: nobody dials it, so no `<PREFIX>_GRPC_URL`. */
export const GRPC_SERVICES = SERVICES.filter((service) => service.name !== 'mailer-worker').map(
  (service) => service.name,
);

/** Ports as the services compute them: `<PREFIX>_GRPC_PORT` / `_METRICS_PORT`, else base + index. */
export function servicePorts(config: LauncherConfig, env: NodeJS.ProcessEnv = process.env): ServicePorts[] {
  return SERVICES.map(({ name, envPrefix, index }) => ({
    name,
    envPrefix,
    grpcPort: Number(env[`${envPrefix}_GRPC_PORT`] || config.grpcPortBase + index),
    metricsPort: Number(env[`${envPrefix}_METRICS_PORT`] || config.metricsPortBase + index),
  }));
}

/**
 * Where oauth replicas 2..OAUTH_REPLICAS listen: the ports after the six services'
 * (GRPC_PORT_BASE + 5 + n and METRICS_PORT_BASE + 5 + n, so 50057 and 9407 for the second).
 * Replica 1 is the oauth of `servicePorts`.
 */
export function oauthReplicaPorts(
  config: LauncherConfig,
): { replica: number; grpcPort: number; metricsPort: number }[] {
  return Array.from({ length: config.oauthReplicas - 1 }, (_, index) => {
    const replica = index + 2;
    return {
      replica,
      grpcPort: config.grpcPortBase + SERVICES.length - 1 + replica,
      metricsPort: config.metricsPortBase + SERVICES.length - 1 + replica,
    };
  });
}

/**
 * docs/decisions.md #26 on one machine: the callers' channel balances round-robin over every
 * replica, which grpc-js takes as one `ipv4:` target listing each address.
 */
function oauthTarget(config: LauncherConfig, firstPort: number): string {
  const ports = [firstPort, ...oauthReplicaPorts(config).map((replica) => replica.grpcPort)];
  return ports.length === 1
    ? `127.0.0.1:${firstPort}`
    : `ipv4:${ports.map((port) => `127.0.0.1:${port}`).join(',')}`;
}

/** The environment of oauth replica n (2..): the shared one with its own ports. */
export function oauthReplicaEnvironment(
  env: NodeJS.ProcessEnv,
  ports: { grpcPort: number; metricsPort: number },
): NodeJS.ProcessEnv {
  return { ...env, OAUTH_GRPC_PORT: String(ports.grpcPort), OAUTH_METRICS_PORT: String(ports.metricsPort) };
}

export interface ResolvedBackends {
  databaseUrl: string;
  redisUrl: string;
  smtpUrl: string;
  keyEncryptionKey: string;
  secretHashKey: string;
}

/**
 * The one environment every process gets: the caller's, plus the resolved backends, secrets
 * and the address of every gRPC service (so a port override reaches the callers too).
 */
export function childEnvironment(
  config: LauncherConfig,
  backends: ResolvedBackends,
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const urls = Object.fromEntries(
    servicePorts(config, env)
      .filter((service) => GRPC_SERVICES.includes(service.name))
      .map((service) => [
        `${service.envPrefix}_GRPC_URL`,
        env[`${service.envPrefix}_GRPC_URL`] ||
          (service.name === 'oauth'
            ? oauthTarget(config, service.grpcPort)
            : `127.0.0.1:${service.grpcPort}`),
      ]),
  );
  return {
    ...env,
    ...urls,
    LOG_LEVEL: config.logLevel,
    PORT: String(config.port),
    HOST: config.host,
    JWT_ISSUER: config.issuer,
    GRPC_PORT_BASE: String(config.grpcPortBase),
    METRICS_PORT_BASE: String(config.metricsPortBase),
    DATABASE_URL: backends.databaseUrl,
    REDIS_URL: backends.redisUrl,
    SMTP_URL: backends.smtpUrl,
    KEY_ENCRYPTION_KEY: backends.keyEncryptionKey,
    SECRET_HASH_KEY: backends.secretHashKey,
  };
}
