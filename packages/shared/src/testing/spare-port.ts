import { createServer } from 'node:net';

// Linux hands out 32768-60999 to listen(0) and to every outgoing connection, so a port picked
// there, released and bound again seconds later may have been taken meanwhile by a parallel
// test's gRPC server. Ports chosen at random below that range are only ever taken by another
// pick like this one; callers that bind much later should still retry on EADDRINUSE.
const LOWEST = 20_000;
const HIGHEST = 32_000;

function isFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A loopback port below the ephemeral range that nothing listens on right now. */
export async function spareTestPort(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST));
    if (await isFree(port, host)) return port;
  }
  throw new Error('no spare test port below the ephemeral range');
}

/** True for the error a listen() on a port someone else took raises. */
export function isAddressInUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}
