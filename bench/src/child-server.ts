import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ChildServer {
  stop(): Promise<void>;
  /** The process id, for the memory and CPU readings. */
  pid: number | undefined;
}

/**
 * Starts one of the bench's own comparison servers (oidc-provider, the floor) in a process of
 * its own, so that, as with the suite, the load generator (this process) and the server share
 * only the machine, not an event loop. Resolves once it prints `listening on`.
 */
export async function startChildServer(
  name: string,
  entry: string,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
): Promise<ChildServer> {
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, ...env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = once(child, 'exit');
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const listening = new Promise<void>((resolve) =>
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      if (line.startsWith('listening on')) resolve();
    }),
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    if (await Promise.race([exited.then(() => true), sleep(10_000, false, { ref: false })])) return;
    child.kill('SIGKILL');
    await exited;
  };
  const outcome = await Promise.race([
    listening.then(() => 'listening' as const),
    exited.then(() => 'exited' as const),
    sleep(30_000, 'timeout' as const, { signal, ref: false }),
  ]).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  if (outcome !== 'listening') {
    await stop();
    throw new Error(`${name} did not start (${outcome}):\n${output.slice(-20).join('\n')}`);
  }
  return { stop, pid: child.pid };
}
