import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { findOnPath } from './binaries.js';
import type { LineSink } from './log.js';
import { waitUntil } from './ports.js';
import { ManagedProcess, type ExitStatus } from './processes.js';

export interface EmbeddedRedisOptions {
  /** Holds redis.conf and the snapshot, e.g. .data/redis. */
  dir: string;
  port: number;
  password: string;
  sink: LineSink;
  pidFile?: string;
  startTimeoutMs?: number;
}

export interface EmbeddedRedis {
  url: string;
  port: number;
  process: ManagedProcess;
  stop(): Promise<ExitStatus & { forced: boolean }>;
}

/**
 * redis-server from PATH on a private port, bound to 127.0.0.1, password-protected. It keeps
 * an RDB snapshot in `dir` (written every minute after a change and on shutdown), so queued
 * mail, the revocation deny-list and rate-limit windows survive a restart as the database does.
 * Its own log goes to `dir`/redis.log (even at `warning` it prints its start-up banner); the
 * tail is shown when it fails.
 */
export async function startEmbeddedRedis(options: EmbeddedRedisOptions): Promise<EmbeddedRedis> {
  const binary = findOnPath('redis-server');
  if (!binary) {
    throw new Error(
      'redis-server was not found on PATH: install Redis, or set REDIS_URL to a server you run',
    );
  }
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  // A config file (0600) rather than arguments keeps the password out of `ps`.
  const configFile = join(options.dir, 'redis.conf');
  await writeFile(configFile, redisConfig(options), { mode: 0o600 });
  const server = new ManagedProcess({
    name: 'redis',
    command: binary,
    args: [configFile],
    cwd: options.dir,
    env: process.env,
    sink: options.sink,
    stopSignal: 'SIGTERM', // saves the snapshot, then exits
    ...(options.pidFile ? { pidFile: options.pidFile } : {}),
  });
  try {
    await waitUntil(
      'Redis to answer PING',
      async () => {
        if (!server.running) throw new Error('Redis exited during start-up (see the redis lines above)');
        return redisPing(options.port, options.password);
      },
      { timeoutMs: options.startTimeoutMs ?? 30_000, intervalMs: 100 },
    );
  } catch (error) {
    await server.stop(5_000);
    const log = await readFile(join(options.dir, 'redis.log'), 'utf8').catch(() => '');
    const tail = log.trim().split('\n').slice(-5).join('\n');
    throw new Error(`${(error as Error).message}${tail ? `; redis.log ends with:\n${tail}` : ''}`);
  }
  return {
    url: `redis://:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}`,
    port: options.port,
    process: server,
    stop: () => server.stop(15_000),
  };
}

function redisConfig({ dir, port, password }: EmbeddedRedisOptions): string {
  const quote = (value: string) => JSON.stringify(value);
  return [
    'bind 127.0.0.1',
    `port ${port}`,
    'protected-mode yes',
    'daemonize no',
    `dir ${quote(dir)}`,
    'dbfilename dump.rdb',
    'save 60 1',
    'appendonly no',
    `requirepass ${quote(password)}`,
    'loglevel warning',
    `logfile ${quote(join(dir, 'redis.log'))}`,
    '',
  ].join('\n');
}

/** AUTH + PING over raw RESP: true on `+OK` `+PONG`. */
export function redisPing(port: number, password: string, timeoutMs = 1000): Promise<boolean> {
  const bulk = (value: string) => `$${Buffer.byteLength(value)}\r\n${value}\r\n`;
  const request = `*2\r\n${bulk('AUTH')}${bulk(password)}*1\r\n${bulk('PING')}`;
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let reply = '';
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write(request));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('+PONG\r\n')) done(reply.startsWith('+OK\r\n'));
      else if (reply.startsWith('-')) done(false);
    });
  });
}
