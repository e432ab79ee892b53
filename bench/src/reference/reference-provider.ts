import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startChildServer } from '../child-server.js';
import { basicAuthorization } from '../suite/fixtures.js';

export interface ReferenceProvider {
  tokenUrl: string;
  authorization: string;
  stop(): Promise<void>;
}

/** Starts node-oidc-provider in a process of its own (child-server.ts). */
export async function startReferenceProvider(
  port: number,
  extraEnv: NodeJS.ProcessEnv,
  signal: AbortSignal,
): Promise<ReferenceProvider> {
  const clientId = randomUUID();
  const clientSecret = randomBytes(32).toString('base64url');
  const entry = fileURLToPath(new URL('./reference-server.js', import.meta.url));
  const { stop } = await startChildServer(
    'oidc-provider',
    entry,
    {
      ...extraEnv,
      REFERENCE_PORT: String(port),
      REFERENCE_CLIENT_ID: clientId,
      REFERENCE_CLIENT_SECRET: clientSecret,
    },
    signal,
  );
  return {
    tokenUrl: `http://127.0.0.1:${port}/token`,
    authorization: basicAuthorization(clientId, clientSecret),
    stop,
  };
}
