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
        env[`${service.envPrefix}_GRPC_URL`] || `127.0.0.1:${service.grpcPort}`,
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
