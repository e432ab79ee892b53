import { createServer } from 'node:http';
import Provider from 'oidc-provider';
import { loadReferenceEnv } from '../config/env.js';
import { referenceConfiguration } from './reference-config.js';

/** Child process entry: node-oidc-provider alone on one port, as the suite's gateway is. */
const env = loadReferenceEnv();
const issuer = `http://127.0.0.1:${env.REFERENCE_PORT}`;
const provider = new Provider(
  issuer,
  referenceConfiguration({ clientId: env.REFERENCE_CLIENT_ID, clientSecret: env.REFERENCE_CLIENT_SECRET }),
);
const server = createServer(provider.callback());

function stop(): void {
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);

server.listen(env.REFERENCE_PORT, '127.0.0.1', () => {
  process.stdout.write(`listening on ${issuer}\n`);
});
