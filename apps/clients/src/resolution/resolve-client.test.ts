import { randomUUID } from 'node:crypto';
import { InvalidClientError, NotFoundError, toOAuthWire } from '@authz/shared/errors';
import { TestDocumentServer, useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newOwner, rejection, startClients, type ClientsHarness } from '../../test/clients-harness.js';

// ResolveClient (interface.md 4.3 /oauth/authorize, interface.md 5 resolution order; docs/clients.md #16) over
// real gRPC, Postgres and Redis, with client metadata documents served on loopback.
const environment = useTestEnvironment();
let clients: ClientsHarness;
let withoutCimd: ClientsHarness;
let documents: TestDocumentServer;

beforeAll(async () => {
  clients = await startClients(environment, { CIMD_ENABLED: 'true', CIMD_ALLOW_INSECURE_LOOPBACK: 'true' });
  withoutCimd = await startClients(environment);
  documents = await TestDocumentServer.start();
});
afterAll(async () => {
  await Promise.all([clients.close(), withoutCimd.close()]);
  await documents.close();
});

const VIEW = 'authz.clients.v1.AuthenticatedClient';
const list = (values: string[]) => ({ values });
const webApp = {
  name: 'Web app',
  redirectUris: list(['https://app.example/callback', 'http://127.0.0.1:8400/cb']),
  scopes: list(['openid', 'email']),
  tokenEndpointAuthMethod: 'client_secret_basic',
};

async function createWebApp() {
  const owner = newOwner();
  const { client } = await clients.client.createClient({ owner, settings: webApp });
  return { owner, id: client!.id, clientId: client!.clientId };
}

/** Everything stored about the client, to show that resolving writes nothing. */
async function storedRow(id: string): Promise<string> {
  const { rows } = await clients.sql.query(
    `SELECT row_to_json(c)::text AS row FROM clients.clients c WHERE id = $1`,
    [id],
  );
  return rows[0].row;
}

async function notFound(harness: ClientsHarness, clientId: string) {
  const error = await rejection(harness.client.resolveClient({ clientId }));
  expect(error).toBeInstanceOf(NotFoundError);
  expect(error).toMatchObject({
    code: 'NOT_FOUND',
    statusCode: 404,
    message: 'Not found',
    details: undefined,
  });
  return JSON.stringify(error);
}

async function invalidClient(clientId: string) {
  const error = await rejection(clients.client.resolveClient({ clientId }));
  expect(error).toBeInstanceOf(InvalidClientError);
  return toOAuthWire(error as InvalidClientError);
}

describe('ResolveClient: stored clients', () => {
  it('resolves a pre-registered client to the authentication view, writing nothing', async () => {
    const { id, clientId } = await createWebApp();
    await clients.sql.query(`UPDATE clients.clients SET audience = $2 WHERE id = $1`, [
      id,
      ['https://api.example'],
    ]);
    const before = await storedRow(id);
    const published = clients.invalidations.length;

    const { client } = await clients.client.resolveClient({ clientId });
    expect(client).toEqual({
      $typeName: VIEW,
      id,
      clientId,
      name: 'Web app',
      grantTypes: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'email'],
      audience: ['https://api.example'],
      isAgent: false,
      agentScopeModes: [],
      tokenEndpointAuthMethod: 'client_secret_basic',
      source: 'pre_registered',
      redirectUris: ['https://app.example/callback', 'http://127.0.0.1:8400/cb'],
      requirePkce: true,
      postLogoutRedirectUris: [],
      backchannelLogoutSessionRequired: false,
      idTokenSignedResponseAlg: 'EdDSA',
      requirePushedAuthorizationRequests: false,
      dpopBoundAccessTokens: false,
    });
    expect(await storedRow(id)).toBe(before);
    expect(clients.invalidations.length).toBe(published);
  });

  it('resolves a dynamically registered client, agents included', async () => {
    const registered = await clients.client.registerClient({
      metadataJson: JSON.stringify({
        client_name: 'Helper agent',
        redirect_uris: ['https://agent.example/cb'],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        scope: 'openid profile',
        is_agent: true,
      }),
    });
    const { rows } = await clients.sql.query(`SELECT id::text FROM clients.clients WHERE client_id = $1`, [
      registered.clientId,
    ]);
    const { client } = await clients.client.resolveClient({ clientId: registered.clientId });
    expect(client).toEqual({
      $typeName: VIEW,
      id: rows[0].id,
      clientId: registered.clientId,
      name: 'Helper agent',
      grantTypes: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'profile'],
      audience: [],
      isAgent: true,
      agentScopeModes: [],
      tokenEndpointAuthMethod: 'none',
      source: 'dynamic',
      redirectUris: ['https://agent.example/cb'],
      requirePkce: true,
      postLogoutRedirectUris: [],
      backchannelLogoutSessionRequired: false,
      idTokenSignedResponseAlg: 'EdDSA',
      requirePushedAuthorizationRequests: false,
      dpopBoundAccessTokens: false,
    });
  });

  it('answers exactly what AuthenticateClient answers for the same public client', async () => {
    const owner = newOwner();
    const { client: created } = await clients.client.createClient({
      owner,
      settings: {
        name: 'SPA',
        redirectUris: list(['https://spa.example/cb']),
        tokenEndpointAuthMethod: 'none',
      },
    });
    const clientId = created!.clientId;
    const resolved = await clients.client.resolveClient({ clientId });
    const authenticated = await clients.client.authenticateClient({
      bodyClientId: clientId,
      grantType: 'authorization_code',
    });
    expect(resolved.client).toEqual(authenticated.client);
  });

  it('answers one bare NotFoundError for unknown, malformed, disabled and deleted clients', async () => {
    const disabled = await createWebApp();
    await clients.client.updateClient({
      client: { owner: disabled.owner, id: disabled.id },
      settings: { enabled: false },
    });
    const deleted = await createWebApp();
    await clients.client.deleteClient({ client: { owner: deleted.owner, id: deleted.id } });

    const answers = [];
    for (const clientId of [
      randomUUID(),
      'no-such-client',
      '',
      'authz-first-party',
      disabled.clientId,
      deleted.clientId,
      // The record id is not a client_id.
      disabled.id,
    ]) {
      answers.push(await notFound(clients, clientId));
    }
    expect(new Set(answers).size).toBe(1);
  });
});

describe('ResolveClient: client ID metadata documents', () => {
  function publish(body: unknown, path = `/clients/${randomUUID()}.json`) {
    documents.serve(path, { body });
    return { clientId: documents.url(path), path };
  }

  it('resolves a document client like AuthenticateClient does, sharing its cache', async () => {
    const path = `/clients/${randomUUID()}.json`;
    const clientId = documents.url(path);
    publish(
      {
        client_id: clientId,
        client_name: 'Notes app',
        redirect_uris: ['https://notes.example/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        scope: 'openid email offline_access',
      },
      path,
    );
    const { client } = await clients.client.resolveClient({ clientId });
    expect(client).toEqual({
      $typeName: VIEW,
      id: '',
      clientId,
      name: 'Notes app',
      grantTypes: ['authorization_code', 'refresh_token'],
      // Capped to DEFAULT_DYNAMIC_REGISTRATION_SCOPES (docs/clients.md #13).
      scopes: ['openid', 'email'],
      audience: [],
      isAgent: false,
      agentScopeModes: [],
      tokenEndpointAuthMethod: 'none',
      source: 'cimd',
      redirectUris: ['https://notes.example/callback'],
      requirePkce: true,
      postLogoutRedirectUris: [],
      backchannelLogoutSessionRequired: false,
      idTokenSignedResponseAlg: 'EdDSA',
      requirePushedAuthorizationRequests: false,
      dpopBoundAccessTokens: false,
    });
    const authenticated = await clients.client.authenticateClient({
      bodyClientId: clientId,
      grantType: 'authorization_code',
    });
    expect(authenticated.client).toEqual(client);
    expect(documents.requests(path)).toBe(1);
  });

  it('answers a document problem with invalid_client and its description', async () => {
    const { clientId } = publish('{ "client_id": ');
    expect(await invalidClient(clientId)).toEqual({
      error: 'invalid_client',
      error_description: 'The client metadata document is not valid JSON',
      code: 'INVALID_CLIENT',
      statusCode: 401,
    });
    const mismatch = publish({
      client_id: 'https://elsewhere.example/c.json',
      redirect_uris: ['https://a.example/cb'],
    });
    expect(await invalidClient(mismatch.clientId)).toMatchObject({
      error_description: "The client metadata document's client_id does not match its URL",
    });
    expect(await invalidClient(documents.url('/client.json?v=1'))).toMatchObject({
      error_description: 'The client_id is not a valid client metadata document URL',
    });
  });

  it('reads id_token_signed_response_alg from the document, and refuses one it does not sign with', async () => {
    const rs256 = `/clients/${randomUUID()}.json`;
    publish(
      {
        client_id: documents.url(rs256),
        redirect_uris: ['https://notes.example/callback'],
        id_token_signed_response_alg: 'RS256',
      },
      rs256,
    );
    const { client } = await clients.client.resolveClient({ clientId: documents.url(rs256) });
    expect(client?.idTokenSignedResponseAlg).toBe('RS256');
    const hs256 = `/clients/${randomUUID()}.json`;
    publish(
      {
        client_id: documents.url(hs256),
        redirect_uris: ['https://notes.example/callback'],
        id_token_signed_response_alg: 'HS256',
      },
      hs256,
    );
    expect(await invalidClient(documents.url(hs256))).toMatchObject({
      error: 'invalid_client',
      error_description: expect.stringContaining('id_token_signed_response_alg'),
    });
  });

  it('answers a fetch failure exactly as AuthenticateClient does, without naming the cause', async () => {
    // Nothing is served at either path (404); two URLs, so neither answer comes from the cache.
    const unserved = () => documents.url(`/clients/${randomUUID()}.json`);
    const resolved = await invalidClient(unserved());
    const authenticated = toOAuthWire(
      (await rejection(
        clients.client.authenticateClient({ bodyClientId: unserved(), grantType: 'authorization_code' }),
      )) as InvalidClientError,
    );
    expect(resolved).toEqual(authenticated);
    expect(resolved).toEqual({
      error: 'invalid_client',
      error_description: 'The client metadata document could not be retrieved',
      code: 'INVALID_CLIENT',
      statusCode: 401,
    });
  });

  it('treats a URL client_id as an unknown client while CIMD is off, fetching nothing', async () => {
    const path = `/clients/${randomUUID()}.json`;
    const { clientId } = publish(
      { client_id: documents.url(path), redirect_uris: ['https://a.example/cb'] },
      path,
    );
    await notFound(withoutCimd, clientId);
    expect(documents.requests(path)).toBe(0);
  });
});
