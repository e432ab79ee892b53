import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { basicAuthorization } from '../suite/fixtures.js';

export interface ReferenceProvider {
  tokenUrl: string;
  authorization: string;
  stop(): Promise<void>;
}

/**
 * Starts node-oidc-provider in a process of its own, so that, as with the suite, the load
 * generator (this process) and the server share only the machine, not an event loop.
 */
export async function startReferenceProvider(
  port: number,
  extraEnv: NodeJS.ProcessEnv,
  signal: AbortSignal,
): Promise<ReferenceProvider> {
  const clientId = randomUUID();
  const clientSecret = randomBytes(32).toString('base64url');
  const entry = fileURLToPath(new URL('./reference-server.js', import.meta.url));
  const child = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      ...extraEnv,
      NODE_ENV: 'production',
      REFERENCE_PORT: String(port),
      REFERENCE_CLIENT_ID: clientId,
      REFERENCE_CLIENT_SECRET: clientSecret,
    },
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
    throw new Error(`oidc-provider did not start (${outcome}):\n${output.slice(-20).join('\n')}`);
  }
  return {
    tokenUrl: `http://127.0.0.1:${port}/token`,
    authorization: basicAuthorization(clientId, clientSecret),
    stop,
  };
}
