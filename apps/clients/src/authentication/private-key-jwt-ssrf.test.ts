import { randomUUID } from 'node:crypto';
import { InvalidClientError } from '@authz/shared/errors';
import { CLIENT_ASSERTION_TYPE } from '@authz/shared/protocol';
import { TestDocumentServer, useTestEnvironment } from '@authz/shared/testing';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newOwner, rejection, startClients, type ClientsHarness } from '../../test/clients-harness.js';

// docs/decisions.md #16: jwks_uri fetching has the protections of CIMD. Loopback is not allowed
// here (CIMD_ALLOW_INSECURE_LOOPBACK off), so a key set on 127.0.0.1 is never fetched.
const environment = useTestEnvironment();
let clients: ClientsHarness;
let documents: TestDocumentServer;

beforeAll(async () => {
  clients = await startClients(environment, { JWT_ISSUER: 'https://issuer.test' });
  documents = await TestDocumentServer.start();
});
afterAll(async () => {
  await clients.close();
  await documents.close();
});

it('refuses a jwks_uri that resolves to a loopback address without connecting to it', async () => {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA');
  documents.serve('/jwks', { body: { keys: [{ ...(await exportJWK(publicKey)), kid: 'k' }] } });
  const jwksUri = `https://localhost:${documents.port}/jwks`;
  const { client } = await clients.client.createClient({
    owner: newOwner(),
    settings: {
      name: 'Internal keys',
      grantTypes: { values: ['client_credentials'] },
      responseTypes: { values: [] },
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwksUri: { value: jwksUri },
    },
  });
  const clientId = client!.clientId;
  const clientAssertion = await new SignJWT({})
    .setProtectedHeader({ alg: 'EdDSA', kid: 'k' })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience('https://issuer.test')
    .setExpirationTime('1m')
    .setJti(randomUUID())
    .sign(privateKey);
  const error = await rejection(
    clients.client.authenticateClient({
      clientAssertionType: CLIENT_ASSERTION_TYPE,
      clientAssertion,
      grantType: 'client_credentials',
    }),
  );
  expect(error).toBeInstanceOf(InvalidClientError);
  expect(documents.connections).toBe(0);
});
