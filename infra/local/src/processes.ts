import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { pipeLines, type LineSink } from './log.js';

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ManagedProcessOptions {
  /** Prefix of every output line. */
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  sink: LineSink;
  /** Run as another user (the embedded PostgreSQL when we are root). */
  uid?: number;
  gid?: number;
  /** Recorded so the next start can stop it if this launcher dies without cleaning up. */
  pidFile?: string;
  /** How this process shuts down cleanly (PostgreSQL: SIGINT = fast shutdown). */
  stopSignal?: NodeJS.Signals;
}

/** What a pid file holds; leftovers.ts reads it back. */
export interface PidRecord {
  pid: number;
  command: string;
  stopSignal: NodeJS.Signals;
}

/**
 * One child process. It is detached into its own process group so a terminal Ctrl-C reaches
 * only the launcher, which then stops the suite in order (gateway, services, Redis, PostgreSQL)
 * instead of every process racing its dependencies down.
 */
export class ManagedProcess {
  readonly exited: Promise<ExitStatus>;
  private status: ExitStatus | undefined;
  private readonly child: ChildProcess;

  constructor(private readonly options: ManagedProcessOptions) {
    this.child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid }),
    });
    if (this.child.stdout) pipeLines(this.child.stdout, options.name, options.sink);
    if (this.child.stderr) pipeLines(this.child.stderr, options.name, options.sink);
    this.exited = this.watchExit();
    // Written synchronously so it exists before the exit watcher could remove it.
    if (options.pidFile && this.child.pid) this.writePidFile(options.pidFile, this.child.pid);
  }

  get name(): string {
    return this.options.name;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.status === undefined;
  }

  /** Asks politely, then SIGKILLs the whole group after `graceMs`. */
  async stop(
    graceMs: number,
    signal = this.options.stopSignal ?? 'SIGTERM',
  ): Promise<ExitStatus & { forced: boolean }> {
    if (this.status) return { ...this.status, forced: false };
    this.signal(signal);
    const timer = sleep(graceMs).then(() => 'timeout' as const);
    const outcome = await Promise.race([this.exited, timer]);
    if (outcome !== 'timeout') return { ...outcome, forced: false };
    this.options.sink(this.name, `did not stop within ${graceMs / 1000} s; killing it`);
    this.kill();
    return { ...(await this.exited), forced: true };
  }

  /** SIGKILL to the process group: the process and anything it started. */
  kill(): void {
    if (this.child.pid) signalGroup(this.child.pid, 'SIGKILL');
  }

  private signal(signal: NodeJS.Signals): void {
    try {
      this.child.kill(signal);
    } catch {
      // Already gone: `exited` settles on its own.
    }
  }

  private async watchExit(): Promise<ExitStatus> {
    const [code, signal] = (await Promise.race([
      once(this.child, 'exit'),
      once(this.child, 'error').then(([error]) => {
        this.options.sink(this.name, `could not start ${this.options.command}: ${(error as Error).message}`);
        return [127, null];
      }),
    ])) as [number | null, NodeJS.Signals | null];
    // Let the last lines (often the reason for a crash) reach the console first.
    await Promise.race([once(this.child, 'close'), sleep(200)]);
    // Anything the process left behind in its group goes with it.
    if (this.child.pid) signalGroup(this.child.pid, 'SIGKILL');
    if (this.options.pidFile) await rm(this.options.pidFile, { force: true });
    this.status = { code, signal };
    return this.status;
  }

  private writePidFile(file: string, pid: number): void {
    const record: PidRecord = {
      pid,
      command: [this.options.command, ...this.options.args].join(' '),
      stopSignal: this.options.stopSignal ?? 'SIGTERM',
    };
    writeFileSync(file, JSON.stringify(record));
  }
}

export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already empty.
  }
}

/**
 * A zombie counts as gone: it holds no port or lock, and an orphan's zombie lingers until the
 * init process gets round to reaping it (seconds, in some containers).
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no procfs (macOS): trust kill(0)
  }
}

export function describeExit({ code, signal }: ExitStatus): string {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}
