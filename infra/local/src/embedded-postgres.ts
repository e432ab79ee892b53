import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { findPostgresBinaries } from './binaries.js';
import type { LineSink } from './log.js';
import { waitUntil } from './ports.js';
import { describeExit, ManagedProcess, type ExitStatus } from './processes.js';
import { canWriteAs, chownTo, postgresRunAs, type RunAs } from './run-as.js';

/** The role initdb creates and the services connect as. */
export const EMBEDDED_POSTGRES_USER = 'authz';
/** Unix socket paths are limited to ~107 bytes (sun_path); longer folders go TCP-only. */
const MAX_SOCKET_PATH = 100;

export interface EmbeddedPostgresOptions {
  /** The cluster folder (initdb's -D), e.g. .data/postgres. */
  dataDir: string;
  /** Private socket folder, so we never touch the system server's /var/run/postgresql. */
  socketDir: string;
  port: number;
  password: string;
  /** Created when missing; what DATABASE_URL names. */
  database: string;
  sink: LineSink;
  pidFile?: string;
  startTimeoutMs?: number;
}

export interface EmbeddedPostgres {
  url: string;
  port: number;
  major: number;
  /** True when this start ran initdb. */
  created: boolean;
  process: ManagedProcess;
  stop(): Promise<ExitStatus & { forced: boolean }>;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const existingMajor = await clusterMajor(options.dataDir);
  const binaries = findPostgresBinaries(existingMajor);
  if (!binaries) {
    throw new Error(
      'PostgreSQL server binaries (initdb, postgres) were not found on PATH nor in ' +
        '/usr/lib/postgresql/*/bin: install the PostgreSQL server, or set DATABASE_URL to a server you run',
    );
  }
  if (existingMajor !== undefined && existingMajor !== binaries.major) {
    throw new Error(
      `${options.dataDir} holds a PostgreSQL ${existingMajor} cluster but only PostgreSQL ` +
        `${binaries.major} was found: install ${existingMajor}, delete that folder, or set DATABASE_URL`,
    );
  }
  const runAs = postgresRunAs();
  if (existingMajor === undefined) await initCluster(binaries.initdb, options, runAs);
  await mkdir(options.socketDir, { recursive: true, mode: 0o700 });
  await chownTo(options.socketDir, runAs);
  const socketDir =
    join(options.socketDir, `.s.PGSQL.${options.port}`).length <= MAX_SOCKET_PATH ? options.socketDir : '';

  const server = new ManagedProcess({
    name: 'postgres',
    command: binaries.postgres,
    // Every setting on the command line: the cluster's own files stay initdb's defaults.
    args: [
      '-D',
      options.dataDir,
      ...settings({
        port: String(options.port),
        listen_addresses: '127.0.0.1',
        unix_socket_directories: socketDir,
        // Seven services with connection pools, plus tests cloning databases.
        max_connections: '200',
        log_checkpoints: 'off',
        log_line_prefix: '',
      }),
    ],
    cwd: options.dataDir,
    env: { ...process.env, LC_ALL: 'C' },
    sink: withoutRoutineLines(options.sink),
    stopSignal: 'SIGINT', // fast shutdown: roll back open transactions, checkpoint, exit
    ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
    ...(options.pidFile ? { pidFile: options.pidFile } : {}),
  });
  const adminUrl = connectionUrl(options, 'postgres');
  try {
    await waitUntil('PostgreSQL to accept connections', () => readyOrExited(server, options.dataDir), {
      timeoutMs: options.startTimeoutMs ?? 60_000,
      intervalMs: 100,
    });
    await ensureDatabase(adminUrl, options.database);
  } catch (error) {
    await server.stop(10_000);
    throw error;
  }
  return {
    url: connectionUrl(options, options.database),
    port: options.port,
    major: binaries.major,
    created: existingMajor === undefined,
    process: server,
    stop: () => server.stop(20_000),
  };
}

/**
 * The server log ranks LOG above ERROR, so log_min_messages cannot hide start/stop chatter
 * without hiding errors: drop LOG/INFO/NOTICE/DEBUG lines and their DETAIL/HINT lines here.
 */
function withoutRoutineLines(sink: LineSink): LineSink {
  let hiding = false;
  return (source, line) => {
    const severity = /^(?:\S+ )?([A-Z]+\d?):\s/.exec(line)?.[1];
    if (severity && !['DETAIL', 'HINT', 'CONTEXT', 'STATEMENT'].includes(severity)) {
      hiding = ['LOG', 'INFO', 'NOTICE', 'DEBUG', 'DEBUG1', 'DEBUG2', 'DEBUG3', 'DEBUG4', 'DEBUG5'].includes(
        severity,
      );
    }
    if (!hiding) sink(source, line);
  };
}

function settings(values: Record<string, string>): string[] {
  return Object.entries(values).flatMap(([key, value]) => ['-c', `${key}=${value}`]);
}

function connectionUrl(options: EmbeddedPostgresOptions, database: string): string {
  const password = encodeURIComponent(options.password);
  return `postgresql://${EMBEDDED_POSTGRES_USER}:${password}@127.0.0.1:${options.port}/${database}`;
}

async function clusterMajor(dataDir: string): Promise<number | undefined> {
  const text = await readFile(join(dataDir, 'PG_VERSION'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : Number(text.trim());
}

/** initdb with a password (scram) instead of trust: any local user could reach 127.0.0.1. */
async function initCluster(
  initdb: string,
  options: EmbeddedPostgresOptions,
  runAs: RunAs | undefined,
): Promise<void> {
  // No PG_VERSION means an earlier initdb failed half-way; initdb refuses a non-empty folder.
  await rm(options.dataDir, { recursive: true, force: true });
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  await chownTo(options.dataDir, runAs);
  if (runAs && !canWriteAs(runAs, options.dataDir)) {
    throw new Error(
      `the ${runAs.user} user cannot reach ${options.dataDir}: make its parent folders traversable ` +
        `(chmod o+x), choose another AUTHZ_DATA_DIR, or set DATABASE_URL`,
    );
  }
  const passwordDir = await mkdtemp(join(tmpdir(), 'authz-initdb-'));
  try {
    const passwordFile = join(passwordDir, 'password');
    await writeFile(passwordFile, `${options.password}\n`, { mode: 0o600 });
    await chownTo(passwordDir, runAs);
    await chownTo(passwordFile, runAs);
    options.sink('postgres', `creating a PostgreSQL cluster in ${options.dataDir}`);
    const args = ['-D', options.dataDir, '-U', EMBEDDED_POSTGRES_USER, `--pwfile=${passwordFile}`];
    await runQuietly(initdb, [...args, '--auth=scram-sha-256', '--encoding=UTF8', '--no-locale'], runAs);
  } finally {
    await rm(passwordDir, { recursive: true, force: true });
  }
}

/** Runs to completion; its output is shown only when it fails. */
async function runQuietly(command: string, args: string[], runAs: RunAs | undefined): Promise<void> {
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_ALL: 'C' },
    ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) throw new Error(`${command} ${describeExit({ code, signal })}:\n${output.trim()}`);
}

/**
 * Ready when postmaster.pid says so (its 8th line, what `pg_ctl -w` reads): connecting
 * earlier would make the server log a FATAL "starting up" line per attempt.
 */
async function readyOrExited(server: ManagedProcess, dataDir: string): Promise<boolean> {
  if (!server.running) throw new Error('PostgreSQL exited during start-up (see the postgres lines above)');
  const lines = (await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n');
  return lines[0] === String(server.pid) && lines[7]?.trim() === 'ready';
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}
