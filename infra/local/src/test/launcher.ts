import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isPortFree } from '../ports.js';

export const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const LAUNCHER = join(PACKAGE_DIR, 'dist', 'main.js');

/** Variables a developer's shell may hold that would steer the launcher away from its defaults. */
const STEERING =
  /^(DATABASE_URL|REDIS_URL|SMTP_URL|KEY_ENCRYPTION_KEY|SECRET_HASH_KEY|JWT_ISSUER|PORT|HOST|GRPC_HOST|AUTHZ_.*|.*_GRPC_(PORT|URL)|.*_METRICS_PORT)$/;

export interface RunningLauncher {
  child: ChildProcess;
  output(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function runLauncher(env: Record<string, string>): RunningLauncher {
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !STEERING.test(key)));
  const child = spawn(process.execPath, [LAUNCHER], {
    cwd: PACKAGE_DIR,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (process.env.LAUNCHER_TEST_VERBOSE) process.stdout.write(chunk);
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const waitFor = (pattern: RegExp, timeoutMs = 120_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output);
        if (match) finish(() => resolve(match));
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${output}`))),
        timeoutMs,
      );
      const onExit = () =>
        setImmediate(() => finish(() => reject(new Error(`launcher exited before ${pattern}:\n${output}`))));
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        child.off('exit', onExit);
        settle();
      };
      listeners.add(check);
      child.once('exit', onExit);
      check();
    });
  return { child, output: () => output, waitFor, exited };
}

/** Every process below `pid` (Linux /proc), e.g. the services, PostgreSQL and its backends. */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command may contain spaces and parentheses: the ppid follows the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [child, ppid] of parents) {
      if (ppid !== parent) continue;
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

export { isAlive as alive } from '../processes.js';

/** A base such that base+1..base+count are all free, so parallel tests never collide. */
export async function freePortBlock(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    // Below Linux's ephemeral range (32768 and up): ports the kernel hands to listen(0) and
    // outgoing connections of parallel tests would otherwise land in the block between this
    // check and the launcher binding it.
    const base = 20_000 + Math.floor(Math.random() * (32_000 - 20_000 - count));
    const ports = Array.from({ length: count }, (_, index) => base + 1 + index);
    if ((await Promise.all(ports.map((port) => isPortFree(port)))).every(Boolean)) return base;
  }
  throw new Error('no free port block');
}

/** Test clean-up: SIGTERM, then after 30 s SIGKILL for the launcher and everything below it. */
export async function stopForGood(launcher: RunningLauncher): Promise<void> {
  if (launcher.child.exitCode !== null || launcher.child.signalCode !== null) return;
  const below = descendants(launcher.child.pid!);
  launcher.child.kill('SIGTERM');
  const timer = new Promise((resolve) => setTimeout(resolve, 30_000));
  if ((await Promise.race([launcher.exited, timer.then(() => 'timeout')])) === 'timeout') {
    for (const pid of [launcher.child.pid!, ...below, ...descendants(launcher.child.pid!)]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}
