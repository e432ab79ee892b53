import { z } from 'zod';
import {
  DEFAULT_GRPC_PORT_BASE,
  DEFAULT_METRICS_PORT_BASE,
  serviceDescriptor,
  type ServiceName,
} from '../topology/index.js';
import { envLogLevel, envPort } from './fields.js';

/** Settings every service process shares: log level, gRPC bind, metrics port, tracing. */
export interface ServiceRuntimeConfig {
  serviceName: ServiceName;
  logLevel: string;
  grpcHost: string;
  grpcPort: number;
  metricsHost: string;
  metricsPort: number;
  otlpEndpoint: string | undefined;
}

/**
 * The shared settings of `name`; `<PREFIX>_GRPC_PORT` / `<PREFIX>_METRICS_PORT` override the
 * port bases (docs/contract.md: "each also has its own override").
 */
export function serviceRuntimeSchema(name: ServiceName): z.ZodType<ServiceRuntimeConfig> {
  const { envPrefix, index } = serviceDescriptor(name);
  const grpcPortVariable = `${envPrefix}_GRPC_PORT`;
  const metricsPortVariable = `${envPrefix}_METRICS_PORT`;
  return z
    .looseObject({
      LOG_LEVEL: envLogLevel(),
      GRPC_HOST: z.string().min(1).default('127.0.0.1'),
      GRPC_PORT_BASE: envPort().default(DEFAULT_GRPC_PORT_BASE),
      METRICS_HOST: z.string().min(1).optional(),
      METRICS_PORT_BASE: envPort().default(DEFAULT_METRICS_PORT_BASE),
      OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
    })
    .superRefine((env, context) => {
      for (const variable of [grpcPortVariable, metricsPortVariable]) {
        if (env[variable] !== undefined && !envPort().safeParse(env[variable]).success) {
          context.addIssue({ code: 'custom', path: [variable], message: 'expected a port number' });
        }
      }
    })
    .transform((env) => ({
      serviceName: name,
      logLevel: env.LOG_LEVEL,
      grpcHost: env.GRPC_HOST,
      grpcPort: optionalPort(env[grpcPortVariable]) ?? env.GRPC_PORT_BASE + index,
      metricsHost: env.METRICS_HOST ?? env.GRPC_HOST,
      metricsPort: optionalPort(env[metricsPortVariable]) ?? env.METRICS_PORT_BASE + index,
      otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
    }));
}

/** Where each named service is reached: `<PREFIX>_GRPC_URL`, else 127.0.0.1:<base + index>. */
export function serviceUrlsSchema<N extends ServiceName>(names: readonly N[]): z.ZodType<Record<N, string>> {
  return z.looseObject({ GRPC_PORT_BASE: envPort().default(DEFAULT_GRPC_PORT_BASE) }).transform((env) => {
    const urls = {} as Record<N, string>;
    for (const name of names) {
      const { envPrefix, index } = serviceDescriptor(name);
      const configured = env[`${envPrefix}_GRPC_URL`];
      urls[name] = typeof configured === 'string' ? configured : `127.0.0.1:${env.GRPC_PORT_BASE + index}`;
    }
    return urls;
  });
}

function optionalPort(value: unknown): number | undefined {
  return value === undefined ? undefined : Number(value);
}
