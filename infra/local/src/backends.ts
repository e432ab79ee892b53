import { chmod, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { LauncherConfig } from './config.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { startEmbeddedRedis } from './embedded-redis.js';
import { INFRA_PID_PREFIX } from './leftovers.js';
import type { LineSink } from './log.js';
import { startMailSink } from './mail-sink.js';
import { preferredOrFreePort } from './ports.js';
import type { ManagedProcess } from './processes.js';
import type { Secrets } from './secrets.js';

/** Stable ports when free, so the printed URLs stay the same from one start to the next. */
const PREFERRED_PORTS = { postgres: 54329, redis: 63799, smtp: 2525 };
export const EMBEDDED_DATABASE = 'authz';

export interface StartedBackend {
  name: string;
  /** The server process when it is one (the mail sink runs inside the launcher). */
  process?: ManagedProcess;
  stop(): Promise<boolean>;
}

export interface BackendUrls {
  databaseUrl: string;
  redisUrl: string;
  smtpUrl: string;
}

/**
 * DATABASE_URL / REDIS_URL / SMTP_URL when set; otherwise an embedded default under the data
 * folder. They start side by side; each one that comes up is handed to `started` at once, so
 * the caller can stop it even when another one fails.
 */
export async function startBackends(
  config: LauncherConfig,
  secrets: Secrets,
  sink: LineSink,
  started: (backend: StartedBackend) => void,
): Promise<BackendUrls> {
  const pidFile = (name: string) => join(config.dataDir, 'run', `${INFRA_PID_PREFIX}${name}.pid.json`);
  const say = (line: string) => sink('local', line);

  const database = async () => {
    if (config.databaseUrl) return config.databaseUrl;
    if (process.getuid?.() === 0) await letOthersTraverse(config.dataDir);
    const server = await startEmbeddedPostgres({
      dataDir: join(config.dataDir, 'postgres'),
      socketDir: join(config.dataDir, 'postgres-socket'),
      port: await preferredOrFreePort(PREFERRED_PORTS.postgres),
      password: secrets.values.EMBEDDED_POSTGRES_PASSWORD,
      database: EMBEDDED_DATABASE,
      sink,
      pidFile: pidFile('postgres'),
    });
    started({
      name: 'postgres',
      process: server.process,
      stop: async () => (await server.stop()).code === 0,
    });
    say(
      `PostgreSQL ${server.major} (embedded) on 127.0.0.1:${server.port}, database ${EMBEDDED_DATABASE}, user authz, password in secrets.json`,
    );
    return server.url;
  };

  const cache = async () => {
    if (config.redisUrl) return config.redisUrl;
    const server = await startEmbeddedRedis({
      dir: join(config.dataDir, 'redis'),
      port: await preferredOrFreePort(PREFERRED_PORTS.redis),
      password: secrets.values.EMBEDDED_REDIS_PASSWORD,
      sink,
      pidFile: pidFile('redis'),
    });
    started({ name: 'redis', process: server.process, stop: async () => (await server.stop()).code === 0 });
    say(`Redis (embedded) on 127.0.0.1:${server.port}, password in secrets.json`);
    return server.url;
  };

  const mail = async () => {
    if (config.smtpUrl) return config.smtpUrl;
    const sinkServer = await startMailSink({ port: await preferredOrFreePort(PREFERRED_PORTS.smtp), sink });
    started({ name: 'mail', stop: async () => (await sinkServer.close(), true) });
    say(`mail sink on ${sinkServer.url}: messages are logged below as "mail"`);
    return sinkServer.url;
  };

  const [databaseUrl, redisUrl, smtpUrl] = await Promise.allSettled([database(), cache(), mail()]);
  for (const result of [databaseUrl, redisUrl, smtpUrl])
    if (result.status === 'rejected') throw result.reason;
  return {
    databaseUrl: (databaseUrl as PromiseFulfilledResult<string>).value,
    redisUrl: (redisUrl as PromiseFulfilledResult<string>).value,
    smtpUrl: (smtpUrl as PromiseFulfilledResult<string>).value,
  };
}

/**
 * As root the server runs as `postgres`, which must pass through the data folder to reach its
 * own postgres/ inside (mkdtemp folders are 0700). Search permission only: nothing is listed,
 * and secrets.json stays 0600.
 */
export async function letOthersTraverse(dir: string): Promise<void> {
  const { mode } = await stat(dir);
  if ((mode & 0o001) === 0) await chmod(dir, (mode & 0o7777) | 0o001);
}
