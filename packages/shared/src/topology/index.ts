/**
 * Where each service listens by default. Internal gRPC ports are GRPC_PORT_BASE + index and
 * metrics ports METRICS_PORT_BASE + index (docs/contract.md); every value has its own override
 * (`<NAME>_GRPC_PORT`, `<NAME>_METRICS_PORT`) and callers find a service at `<NAME>_GRPC_URL`.
 */
export const DEFAULT_GRPC_PORT_BASE = 50050;
export const DEFAULT_METRICS_PORT_BASE = 9400;

export interface ServiceDescriptor {
  /** Package folder under apps/. */
  readonly name: ServiceName;
  /** Offset added to the port bases. */
  readonly index: number;
  /** Prefix of the service's own environment variables (IDENTITY_GRPC_URL, ...). */
  readonly envPrefix: string;
  /** Postgres schema owned by the service, when it owns data. */
  readonly databaseSchema?: string;
}

export type ServiceName = 'identity' | 'oauth' | 'clients' | 'consent-ui' | 'wallet-bridge' | 'mailer-worker';

export const SERVICES: readonly ServiceDescriptor[] = [
  { name: 'identity', index: 1, envPrefix: 'IDENTITY', databaseSchema: 'identity' },
  { name: 'oauth', index: 2, envPrefix: 'OAUTH', databaseSchema: 'oauth' },
  { name: 'clients', index: 3, envPrefix: 'CLIENTS', databaseSchema: 'clients' },
  { name: 'consent-ui', index: 4, envPrefix: 'CONSENT_UI' },
  { name: 'wallet-bridge', index: 5, envPrefix: 'WALLET_BRIDGE', databaseSchema: 'wallet' },
  { name: 'mailer-worker', index: 6, envPrefix: 'MAILER_WORKER' },
];

export function serviceDescriptor(name: ServiceName): ServiceDescriptor {
  const found = SERVICES.find((service) => service.name === name);
  if (!found) throw new Error(`unknown service ${name}`);
  return found;
}

/** Services that own a Postgres schema; the gateway's /health asks each of them (docs/decisions.md #23). */
export const DATA_OWNING_SERVICES = SERVICES.filter((service) => service.databaseSchema !== undefined);

export function defaultGrpcPort(name: ServiceName, base = DEFAULT_GRPC_PORT_BASE): number {
  return base + serviceDescriptor(name).index;
}

export function defaultMetricsPort(name: ServiceName, base = DEFAULT_METRICS_PORT_BASE): number {
  return base + serviceDescriptor(name).index;
}
