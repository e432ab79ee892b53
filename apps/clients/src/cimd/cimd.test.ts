import { randomUUID } from 'node:crypto';
import { InvalidClientError, toOAuthWire } from '@authz/shared/errors';
import { CLIENT_ASSERTION_TYPE } from '@authz/shared/protocol';
import { TestDocumentServer, useTestEnvironment } from '@authz/shared/testing';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejection, startClients, type ClientsHarness } from '../../test/clients-harness.js';

// Client ID metadata documents resolved by AuthenticateClient, over real gRPC and Redis,
// against documents served on loopback.
const environment = useTestEnvironment();
let cimd: ClientsHarness;
let strict: ClientsHarness;
let disabled: ClientsHarness;
let documents: TestDocumentServer;

beforeAll(async () => {
  cimd = await startClients(environment, { CIMD_ENABLED: 'true', CIMD_ALLOW_INSECURE_LOOPBACK: 'true' });
  strict = await startClients(environment, { CIMD_ENABLED: 'true' });
  disabled = await startClients(environment);
  documents = await TestDocumentServer.start();
});
afterAll(async () => {
  await Promise.all([cimd.close(), strict.close(), disabled.close()]);
  await documents.close();
});

/** Serves a valid document at a fresh path and returns its URL (the client_id). */
function publish(overrides: Record<string, unknown> = {}, path = `/clients/${randomUUID()}.json`) {
  const clientId = documents.url(path);
  documents.serve(path, {
    body: {
      client_id: clientId,
      client_name: 'Notes app',
      redirect_uris: ['https://notes.example/callback'],
      ...overrides,
    },
  });
  return { clientId, path };
}

const authenticate = (harness: ClientsHarness, clientId: string) =>
  harness.client.authenticateClient({ bodyClientId: clientId, grantType: 'authorization_code' });

async function refusal(promise: Promise<unknown>) {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(InvalidClientError);
  return toOAuthWire(error as InvalidClientError);
}

const described = (description: string) => ({
  error: 'invalid_client',
  error_description: description,
  code: 'INVALID_CLIENT',
  statusCode: 401,
});

describe('CIMD resolution', () => {
  it('resolves a URL client_id to a public client built from its document, fetched once', async () => {
    const { clientId, path } = publish({ scope: 'openid email offline_access' });
    const { client } = await authenticate(cimd, clientId);
    expect(client).toMatchObject({
      id: '',
      clientId,
      name: 'Notes app',
      source: 'cimd',
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code'],
      redirectUris: ['https://notes.example/callback'],
      // Capped to DEFAULT_DYNAMIC_REGISTRATION_SCOPES, like dynamic registration.
      scopes: ['openid', 'email'],
      requirePkce: true,
      isAgent: false,
    });
    await authenticate(cimd, clientId);
    expect(documents.requests(path)).toBe(1);
  });

  it('answers a document that is not JSON with invalid_client and a description', async () => {
    const path = `/clients/${randomUUID()}.json`;
    documents.serve(path, { body: '{ "client_id": ' });
    expect(await refusal(authenticate(cimd, documents.url(path)))).toEqual(
      described('The client metadata document is not valid JSON'),
    );
  });

  it('remembers a failure for a while instead of fetching on every request', async () => {
    const path = `/clients/${randomUUID()}.json`;
    documents.serve(path, { body: 'not json' });
    await refusal(authenticate(cimd, documents.url(path)));
    publish({}, path);
    await refusal(authenticate(cimd, documents.url(path)));
    expect(documents.requests(path)).toBe(1);
  });

  it('refuses a document whose client_id is not its URL', async () => {
    const { clientId } = publish({ client_id: 'https://notes.example/client.json' });
    expect(await refusal(authenticate(cimd, clientId))).toEqual(
      described("The client metadata document's client_id does not match its URL"),
    );
  });

  it('refuses an oversize document', async () => {
    const { clientId } = publish({ client_name: 'n'.repeat(200), logo_padding: 'x'.repeat(6000) });
    expect(await refusal(authenticate(cimd, clientId))).toEqual(
      described('The client metadata document exceeds 5120 bytes'),
    );
  });

  it('refuses shared secrets and invalid metadata, naming the problem', async () => {
    const secret = publish({ token_endpoint_auth_method: 'client_secret_basic' });
    expect(await refusal(authenticate(cimd, secret.clientId))).toEqual(
      described(
        'The client metadata document is invalid: token_endpoint_auth_method: must be none or private_key_jwt',
      ),
    );
    const withSecret = publish({ client_secret: 'abc' });
    expect(await refusal(authenticate(cimd, withSecret.clientId))).toEqual(
      described('The client metadata document must not contain a client_secret'),
    );
    const noRedirect = publish({ redirect_uris: [] });
    expect(await refusal(authenticate(cimd, noRedirect.clientId))).toEqual(
      described(
        'The client metadata document is invalid: redirect_uris: at least one is required for authorization_code or refresh_token',
      ),
    );
  });

  it('refuses client_id URLs the draft does not allow', async () => {
    for (const clientId of [
      documents.url('/client.json#frag'),
      documents.url('/client.json?v=1'),
      documents.url('/a/../client.json'),
      `http://user:pw@127.0.0.1:${documents.port}/client.json`,
      documents.url('/'),
    ]) {
      expect(await refusal(authenticate(cimd, clientId))).toEqual(
        described('The client_id is not a valid client metadata document URL'),
      );
    }
  });

  it('authenticates a private_key_jwt document client with an assertion', async () => {
    const { publicKey, privateKey } = await generateKeyPair('EdDSA');
    const { clientId } = publish({
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: 'doc-key' }] },
    });
    const clientAssertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'EdDSA', kid: 'doc-key' })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience('http://localhost:3000')
      .setExpirationTime('1m')
      .setJti(randomUUID())
      .sign(privateKey);
    const { client } = await cimd.client.authenticateClient({
      clientAssertionType: CLIENT_ASSERTION_TYPE,
      clientAssertion,
      grantType: 'authorization_code',
    });
    expect(client).toMatchObject({ clientId, tokenEndpointAuthMethod: 'private_key_jwt', source: 'cimd' });
    // A document client is never public by accident: no assertion, no authentication.
    await refusal(authenticate(cimd, clientId));
  });
});

describe('CIMD safety and configuration', () => {
  it('refuses a document on a loopback address when loopback is not allowed, without connecting', async () => {
    const before = documents.connections;
    const path = `/clients/${randomUUID()}.json`;
    const clientId = `https://localhost:${documents.port}${path}`;
    documents.serve(path, { body: { client_id: clientId, redirect_uris: ['https://a.example/cb'] } });
    expect(await refusal(authenticate(strict, clientId))).toEqual(
      described('The client metadata document could not be retrieved'),
    );
    expect(await refusal(authenticate(strict, `https://10.0.0.1/clients/app.json`))).toEqual(
      described('The client metadata document could not be retrieved'),
    );
    expect(documents.connections).toBe(before);
    // And plain http is not a document URL at all without the test-only flag.
    expect(await refusal(authenticate(strict, publish().clientId))).toEqual(
      described('The client_id is not a valid client metadata document URL'),
    );
  });

  it('treats a URL client_id as an unknown client while CIMD is off', async () => {
    const { clientId, path } = publish();
    expect(await refusal(authenticate(disabled, clientId))).toEqual({
      error: 'invalid_client',
      code: 'INVALID_CLIENT',
      statusCode: 401,
    });
    expect(documents.requests(path)).toBe(0);
  });
});
