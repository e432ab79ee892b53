import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startChildServer } from '../child-server.js';
import { basicAuthorization } from '../suite/fixtures.js';

export interface FloorServer {
  tokenUrl: string;
  authorization: string;
  stop(): Promise<void>;
}

/**
 * Starts the floor server (floor-server.ts) in a process of its own (child-server.ts). It is
 * never profiled: its few functions are the ones the suite's own profile already shows.
 */
export async function startFloorServer(port: number, signal: AbortSignal): Promise<FloorServer> {
  const clientId = randomUUID();
  const clientSecret = randomBytes(32).toString('base64url');
  const entry = fileURLToPath(new URL('./floor-server.js', import.meta.url));
  const { stop } = await startChildServer(
    'the floor server',
    entry,
    { FLOOR_PORT: String(port), FLOOR_CLIENT_ID: clientId, FLOOR_CLIENT_SECRET: clientSecret },
    signal,
  );
  return {
    tokenUrl: `http://127.0.0.1:${port}/token`,
    authorization: basicAuthorization(clientId, clientSecret),
    stop,
  };
}
