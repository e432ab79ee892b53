import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { spareTestPort } from '@authz/shared/testing';

/**
 * A private redis-server for fault tests (docs/conventions.md #11: never stop the shared one).
 * stop() kills it; start() brings it back on the same port.
 */
export class PrivateRedisServer {
  private process: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedisServer> {
    const server = new PrivateRedisServer(await spareTestPort());
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    this.process = child;
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) resolve();
      });
    });
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    child.removeAllListeners('exit');
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
}
