import { createConnection, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** True when nothing listens on host:port (we can bind it ourselves). */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A port the OS says is free right now. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** `preferred` when free, so the embedded servers keep stable URLs; else any free port. */
export async function preferredOrFreePort(preferred: number): Promise<number> {
  return (await isPortFree(preferred)) ? preferred : freePort();
}

export function canConnect(port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Polls until `check` resolves true; rejects with `what` after the deadline or on abort. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  { timeoutMs, intervalMs = 200, signal }: { timeoutMs: number; intervalMs?: number; signal?: AbortSignal },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    if (await check()) return;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await sleep(intervalMs, undefined, signal ? { signal } : undefined);
  }
}
