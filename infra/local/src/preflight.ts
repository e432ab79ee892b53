import { existsSync } from 'node:fs';
import { DATA_OWNING_SERVICES, SERVICES } from '@authz/shared/topology';
import { relative } from 'node:path';
import type { LauncherConfig } from './config.js';
import { appEntry } from './paths.js';
import { isPortFree } from './ports.js';
import { oauthReplicaPorts, servicePorts } from './service-env.js';

/** Every entry the suite runs, so a missing build fails before anything starts. */
export function checkAppEntries(config: LauncherConfig): void {
  const entries = [
    ...DATA_OWNING_SERVICES.map((service) => appEntry(config.root, service.name, 'migrate')),
    ...SERVICES.map((service) => appEntry(config.root, service.name, 'main')),
    appEntry(config.root, 'gateway', 'main'),
  ];
  const missing = entries.filter((entry) => !existsSync(entry)).map((entry) => relative(config.root, entry));
  if (missing.length > 0) {
    throw new Error(
      `not built: ${missing.join(', ')}. Build first (\`pnpm build\`); \`pnpm start\` builds through turbo`,
    );
  }
}

/**
 * A port held by something else would make one service die at start with EADDRINUSE; naming
 * the port and the variable that moves it is friendlier.
 */
export async function checkPortsFree(
  config: LauncherConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const wanted = [
    { port: config.port, host: config.host, what: 'gateway HTTP', variable: 'PORT' },
    ...servicePorts(config, env).flatMap((service) => [
      {
        port: service.grpcPort,
        host: config.grpcHost,
        what: `${service.name} gRPC`,
        variable: 'GRPC_PORT_BASE',
      },
      {
        port: service.metricsPort,
        host: config.grpcHost,
        what: `${service.name} metrics`,
        variable: 'METRICS_PORT_BASE',
      },
    ]),
    ...oauthReplicaPorts(config).flatMap((replica) => [
      {
        port: replica.grpcPort,
        host: config.grpcHost,
        what: `oauth-${replica.replica} gRPC`,
        variable: 'GRPC_PORT_BASE',
      },
      {
        port: replica.metricsPort,
        host: config.grpcHost,
        what: `oauth-${replica.replica} metrics`,
        variable: 'METRICS_PORT_BASE',
      },
    ]),
  ];
  const busy = [];
  for (const entry of wanted) {
    if (!(await isPortFree(entry.port, entry.host.replace(/^\[|\]$/g, '')))) busy.push(entry);
  }
  if (busy.length > 0) {
    const lines = busy.map((entry) => `  - ${entry.port} (${entry.what}): set ${entry.variable} to move it`);
    throw new Error(`ports already in use:\n${lines.join('\n')}`);
  }
}
