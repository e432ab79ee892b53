import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { spareTestPort, type TestEnvironment } from '@authz/shared/testing';
import { TcpProxy } from '../support/tcp-proxy.js';

/** interface.md 7 on an OAuth route: a dependency outage is `temporarily_unavailable` (docs/errors.md). */
export const TEMPORARILY_UNAVAILABLE = {
  error: 'temporarily_unavailable',
  code: 'TEMPORARILY_UNAVAILABLE',
  statusCode: 503,
};

/** interface.md 7 on a JSON API route: the 503 envelope. */
export const SERVICE_UNAVAILABLE = {
  error: 'Service unavailable',
  statusCode: 503,
  code: 'SERVICE_UNAVAILABLE',
};

/** A gRPC deadline that passed on a JSON API route (docs/errors.md). */
export const UPSTREAM_TIMEOUT = {
  error: 'Upstream service timed out',
  statusCode: 504,
  code: 'UPSTREAM_TIMEOUT',
};

/** This file's database reached through a proxy the test can cut and restore. */
export async function databaseBehindProxy(environment: TestEnvironment) {
  const database = new URL(environment.databaseUrl);
  const proxy = await TcpProxy.start(database.hostname, Number(database.port || 5432));
  database.hostname = '127.0.0.1';
  database.port = String(proxy.port);
  return { proxy, databaseUrl: database.toString() };
}

/** A server that accepts TCP connections and never says a word: a hung process, a black hole. */
export async function startBlackHole() {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return {
    address: `127.0.0.1:${address.port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Resolves true when a TCP connection to the port is refused (nothing listens any more). */
export function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** The built entry point of an app of this repository (`pnpm test` builds them first). */
export type AppName = 'gateway' | 'oauth' | 'mailer-worker';

export function appEntry(app: AppName): string {
  return fileURLToPath(new URL(`../../../apps/${app}/dist/main.js`, import.meta.url));
}

/**
 * A real process of one of the apps, as production runs it (`node dist/main.js`), logging
 * JSON lines at info level. Fault and shutdown tests signal it; it never outlives the test.
 */
export class AppProcess {
  readonly lines: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private readonly waiters = new Set<() => void>();

  constructor(app: AppName, env: Record<string, string>) {
    this.child = spawn(process.execPath, [appEntry(app)], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      createInterface({ input: stream! }).on('line', (line) => {
        this.lines.push(line);
        for (const wake of this.waiters) wake();
      });
    }
    this.exited = once(this.child, 'exit').then(([code, signal]) => ({
      code: code as number | null,
      signal: signal as NodeJS.Signals | null,
    }));
    this.exited.then(() => this.waiters.forEach((wake) => wake()));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The `msg` of every JSON log line so far. */
  get messages(): string[] {
    return this.lines.flatMap((line) => {
      try {
        return [(JSON.parse(line) as { msg?: string }).msg ?? ''];
      } catch {
        return [];
      }
    });
  }

  /** Resolves once a log line's `msg` is `message`; rejects if the process exits or time runs out. */
  waitForMessage(message: string, timeoutMs = 20_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`no "${message}" within ${timeoutMs} ms`)), timeoutMs);
      const finish = (error?: Error) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const check = () => {
        if (this.messages.includes(message)) finish();
        else if (!this.running)
          finish(new Error(`exited before "${message}":\n${this.lines.slice(-20).join('\n')}`));
      };
      this.waiters.add(check);
      check();
    });
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Test clean-up: whatever state it is in, it is gone afterwards. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

/** The settings a real oauth process needs beside the suite's: its own ports and log level. */
export async function oauthProcessEnv(oauthEnv: Record<string, string>, grpcPort: number) {
  return {
    ...oauthEnv,
    OAUTH_GRPC_PORT: String(grpcPort),
    OAUTH_METRICS_PORT: String(await spareTestPort()),
  };
}
