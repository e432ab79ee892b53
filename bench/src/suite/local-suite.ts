import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LocalSuiteOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  port: number;
  startTimeoutMs: number;
  signal: AbortSignal;
}

/**
 * The whole suite as production runs it: one process per service, started by the launcher of
 * `pnpm start` (infra/local). It runs in a process group of its own, so a Ctrl-C reaches only the
 * bench, which then stops the suite through the launcher (gateway first, then the services).
 */
export class LocalSuite {
  readonly baseUrl: string;
  /** Every line the launcher and the services printed, for a failure report. */
  readonly output: string[] = [];
  private readonly child: ChildProcess;
  private readonly exited: Promise<number | null>;
  private exitCode: number | null | undefined;
  private stopping = false;

  constructor(private readonly options: LocalSuiteOptions) {
    const launcher = join(options.root, 'infra', 'local', 'dist', 'main.js');
    if (!existsSync(launcher)) throw new Error(`${launcher} is missing: run pnpm build first`);
    this.baseUrl = `http://127.0.0.1:${options.port}`;
    this.child = spawn(process.execPath, [launcher], {
      cwd: options.root,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [this.child.stdout, this.child.stderr])
      if (stream) createInterface({ input: stream }).on('line', (line) => this.output.push(line));
    this.exited = once(this.child, 'exit').then(([code]) => (this.exitCode = code as number | null));
  }

  /** How many lines have been printed so far: `output.slice(mark)` is what came after. */
  get mark(): number {
    return this.output.length;
  }

  /** The launcher's process id: the services are its children (load/memory.ts). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * The verification link mailed to `email`, read from the launcher's mail sink, which logs each
   * message's recipients and then its links, in one go (infra/local mail-sink.ts); undefined if no such mail
   * came within `timeoutMs` (the mailer worker sends from a queue, a moment later).
   */
  async verificationLink(email: string, timeoutMs: number): Promise<string | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      this.options.signal.throwIfAborted();
      const start = this.output.findIndex((line) => line.includes(`message to ${email}`));
      const link =
        start < 0
          ? undefined
          : this.output.slice(start + 1, start + 6).find((line) => line.includes('/ui/verify-email?token='));
      if (link) return /https?:\/\/\S+/.exec(link)?.[0];
      await sleep(100);
    }
    return undefined;
  }

  /** True once `stop()` was called: its output no longer explains a failure. */
  get stopRequested(): boolean {
    return this.stopping;
  }

  async waitUntilHealthy(): Promise<void> {
    const deadline = Date.now() + this.options.startTimeoutMs;
    for (;;) {
      this.options.signal.throwIfAborted();
      if (this.exitCode !== undefined) throw new Error(`the launcher exited with code ${this.exitCode}`);
      if (await this.healthy()) break;
      if (Date.now() > deadline) throw new Error(`${this.baseUrl}/health did not answer 200 in time`);
      await sleep(250);
    }
  }

  /**
   * SIGUSR2: the launcher restarts the oauth replicas one at a time (infra/local suite.ts);
   * resolves once it reports them all back.
   */
  async restartOAuthReplicas(timeoutMs: number): Promise<void> {
    const from = this.mark;
    this.child.kill('SIGUSR2');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.options.signal.throwIfAborted();
      const printed = this.output.slice(from);
      if (printed.some((line) => / oauth replicas restarted$/.test(line))) return;
      const stopped = printed.find((line) => / oauth restart stopped: /.test(line));
      if (stopped) throw new Error(stopped.trim());
      if (this.exitCode !== undefined) throw new Error(`the launcher exited with code ${this.exitCode}`);
      if (Date.now() > deadline) throw new Error('the oauth replicas were not restarted in time');
      await sleep(100);
    }
  }

  /** SIGTERM: the launcher stops every child in order; a second one makes it kill them all. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.exitCode !== undefined) return;
    this.child.kill('SIGTERM');
    if (await exitsWithin(this.exited, 60_000)) return;
    this.child.kill('SIGTERM');
    if (await exitsWithin(this.exited, 10_000)) return;
    try {
      if (this.child.pid) process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // ESRCH: gone meanwhile.
    }
    await this.exited;
  }

  /** Last resort (second Ctrl-C): the launcher's own "kill everything". */
  kill(): void {
    if (this.exitCode === undefined) this.child.kill('SIGTERM');
  }

  private async healthy(): Promise<boolean> {
    try {
      const response = await fetch(`${this.baseUrl}/health`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      return response.status === 200;
    } catch {
      return false;
    }
  }
}

async function exitsWithin(exited: Promise<unknown>, ms: number): Promise<boolean> {
  const timeout = sleep(ms, false, { ref: false });
  return Promise.race([exited.then(() => true), timeout]);
}
