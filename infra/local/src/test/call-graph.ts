import { SERVICES } from '@authz/shared/topology';

/** Every deployable app: the gateway and the services of the topology. */
export const APPS: readonly string[] = ['gateway', ...SERVICES.map((service) => service.name)];

/**
 * Who calls whom over gRPC (docs/decisions.md #6, docs/architecture.md): acyclic; identity, clients and
 * the mailer worker call no one. The env tests check the apps' own configuration says the same.
 */
export const CALL_GRAPH: Readonly<Record<string, readonly string[]>> = {
  gateway: ['identity', 'oauth', 'clients', 'consent-ui', 'wallet-bridge'],
  identity: [],
  oauth: ['identity', 'clients'],
  clients: [],
  'consent-ui': ['identity', 'oauth', 'wallet-bridge'],
  'wallet-bridge': ['identity'],
  'mailer-worker': [],
};

/** The variables that hold secrets (docs/contract.md): only ever in the Secret. */
export const SECRET_VARIABLES = [
  'DATABASE_URL',
  'KEY_ENCRYPTION_KEY',
  'REDIS_URL',
  'SECRET_HASH_KEY',
  'SMTP_URL',
];
