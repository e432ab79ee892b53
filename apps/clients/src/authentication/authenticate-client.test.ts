import { InvalidClientError, toOAuthWire } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newOwner, rejection, startClients, type ClientsHarness } from '../../test/clients-harness.js';

// interface.md 5 client authentication over real gRPC, Postgres and Redis.
const environment = useTestEnvironment();
let clients: ClientsHarness;

beforeAll(async () => {
  clients = await startClients(environment);
});
afterAll(() => clients.close());

const list = (values: string[]) => ({ values });
const machine = (tokenEndpointAuthMethod: string) => ({
  name: 'Machine',
  grantTypes: list(['client_credentials']),
  responseTypes: list([]),
  scopes: list(['openid']),
  tokenEndpointAuthMethod,
});
const publicApp = {
  name: 'SPA',
  redirectUris: list(['https://app.example/cb']),
  tokenEndpointAuthMethod: 'none',
};

async function create(settings: Record<string, unknown>) {
  const owner = newOwner();
  const { client, clientSecret } = await clients.client.createClient({ owner, settings });
  return { owner, clientId: client!.clientId, id: client!.id, secret: clientSecret ?? '' };
}

type Request = Parameters<ClientsHarness['client']['authenticateClient']>[0];

async function expectRejected(request: Request) {
  const error = await rejection(clients.client.authenticateClient(request));
  expect(error).toBeInstanceOf(InvalidClientError);
  // docs/decisions.md #21: the bare token, no description.
  expect(toOAuthWire(error as InvalidClientError)).toEqual({
    error: 'invalid_client',
    code: 'INVALID_CLIENT',
    statusCode: 401,
  });
}

describe('AuthenticateClient', () => {
  it('accepts client_secret_basic and answers what the token endpoint needs', async () => {
    const { clientId, id, secret } = await create(machine('client_secret_basic'));
    const { client } = await clients.client.authenticateClient({
      basic: { clientId, clientSecret: secret },
      bodyClientId: clientId,
      grantType: 'client_credentials',
    });
    expect(client).toMatchObject({
      id,
      clientId,
      grantTypes: ['client_credentials'],
      scopes: ['openid'],
      audience: [],
      isAgent: false,
      agentScopeModes: [],
      tokenEndpointAuthMethod: 'client_secret_basic',
    });
  });

  it('refuses a wrong secret, a body/header client_id mismatch and the other method', async () => {
    const { clientId, secret } = await create(machine('client_secret_basic'));
    const grantType = 'client_credentials';
    await expectRejected({
      basic: { clientId, clientSecret: `${secret.slice(0, -1)}${secret.endsWith('x') ? 'y' : 'x'}` },
      grantType,
    });
    await expectRejected({ basic: { clientId, clientSecret: secret }, bodyClientId: 'other', grantType });
    await expectRejected({ bodyClientId: clientId, bodyClientSecret: secret, grantType });
    await expectRejected({ bodyClientId: clientId, grantType });
  });

  it('accepts client_secret_post only in the body', async () => {
    const { clientId, secret } = await create(machine('client_secret_post'));
    const grantType = 'client_credentials';
    const { client } = await clients.client.authenticateClient({
      bodyClientId: clientId,
      bodyClientSecret: secret,
      grantType,
    });
    expect(client?.clientId).toBe(clientId);
    await expectRejected({ basic: { clientId, clientSecret: secret }, grantType });
  });

  it('accepts a public client without a secret and refuses one sent with a secret', async () => {
    const { clientId } = await create(publicApp);
    const grantType = 'authorization_code';
    const { client } = await clients.client.authenticateClient({ bodyClientId: clientId, grantType });
    expect(client?.tokenEndpointAuthMethod).toBe('none');
    await expectRejected({ bodyClientId: clientId, bodyClientSecret: 'x', grantType });
    await expectRejected({ basic: { clientId, clientSecret: '' }, grantType });
  });

  it('authenticates a public client by client_id alone for both user grants, never with a secret', async () => {
    const developerApi = await create({
      ...publicApp,
      grantTypes: list(['authorization_code', 'refresh_token']),
    });
    const registered = await clients.client.registerClient({
      metadataJson: JSON.stringify({
        redirect_uris: ['https://native.example/cb'],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
      }),
    });
    expect(registered.clientSecret).toBeUndefined();
    for (const clientId of [developerApi.clientId, registered.clientId]) {
      for (const grantType of ['authorization_code', 'refresh_token']) {
        const { client } = await clients.client.authenticateClient({ bodyClientId: clientId, grantType });
        expect(client).toMatchObject({ clientId, tokenEndpointAuthMethod: 'none' });
        await expectRejected({ bodyClientId: clientId, bodyClientSecret: 'a'.repeat(64), grantType });
        await expectRejected({ bodyClientId: clientId, bodyClientSecret: '', grantType });
        await expectRejected({ basic: { clientId, clientSecret: 'a'.repeat(64) }, grantType });
        await expectRejected({ basic: { clientId, clientSecret: 'x' }, bodyClientId: clientId, grantType });
      }
    }
  });

  it('refuses unknown, disabled, deleted, private_key_jwt and anonymous callers', async () => {
    const grantType = 'client_credentials';
    await expectRejected({ grantType });
    await expectRejected({ bodyClientId: 'no-such-client', grantType });
    const disabled = await create(machine('client_secret_basic'));
    await clients.client.updateClient({
      client: { owner: disabled.owner, id: disabled.id },
      settings: { enabled: false },
    });
    await expectRejected({
      basic: { clientId: disabled.clientId, clientSecret: disabled.secret },
      grantType,
    });
    const deleted = await create(machine('client_secret_basic'));
    await clients.client.deleteClient({ client: { owner: deleted.owner, id: deleted.id } });
    await expectRejected({ basic: { clientId: deleted.clientId, clientSecret: deleted.secret }, grantType });
    const jwt = await create({
      ...machine('private_key_jwt'),
      jwks: { value: JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'x' }] }) },
    });
    await expectRejected({ basic: { clientId: jwt.clientId, clientSecret: jwt.secret }, grantType });
  });

  it('takes a live API key in place of the secret for client_credentials in development only', async () => {
    const { owner, id, clientId } = await create(machine('client_secret_basic'));
    const { apiKey, key } = await clients.client.createApiKey({ client: { owner, id }, name: 'dev' });
    const basic = { clientId, clientSecret: key };
    const { client } = await clients.client.authenticateClient({ basic, grantType: 'client_credentials' });
    expect(client).toMatchObject({ clientId, apiKeyId: apiKey!.id });
    await expectRejected({ basic, grantType: 'refresh_token' });

    await clients.sql.query(`UPDATE clients.clients SET environment = 'staging' WHERE id = $1`, [id]);
    await expectRejected({ basic, grantType: 'client_credentials' });
    await clients.sql.query(`UPDATE clients.clients SET environment = 'development' WHERE id = $1`, [id]);
    await clients.client.authenticateClient({ basic, grantType: 'client_credentials' });

    await clients.client.revokeApiKey({ client: { owner, id }, keyId: apiKey!.id });
    await expectRejected({ basic, grantType: 'client_credentials' });
  });
});

describe('RecordClientUsage', () => {
  const lastUsed = async (table: 'clients' | 'api_keys', id: string) => {
    const { rows } = await clients.sql.query(`SELECT last_used_at FROM clients.${table} WHERE id = $1`, [id]);
    return (rows[0].last_used_at as Date | null)?.getTime() ?? null;
  };

  it('sets lastUsedAt of clients and API keys to the latest reported use, never backwards', async () => {
    const { owner, id } = await create(machine('client_secret_basic'));
    const { apiKey } = await clients.client.createApiKey({ client: { owner, id }, name: 'dev' });
    expect(await lastUsed('clients', id)).toBeNull();

    await clients.client.recordClientUsage({
      uses: [
        { id, usedAt: 1_800_000_000_000n },
        { id, apiKeyId: apiKey!.id, usedAt: 1_800_000_005_000n },
      ],
    });
    expect(await lastUsed('clients', id)).toBe(1_800_000_005_000);
    expect(await lastUsed('api_keys', apiKey!.id)).toBe(1_800_000_005_000);

    // A late report of an older use leaves the newer time alone.
    await clients.client.recordClientUsage({
      uses: [{ id, apiKeyId: apiKey!.id, usedAt: 1_700_000_000_000n }],
    });
    expect(await lastUsed('clients', id)).toBe(1_800_000_005_000);
    expect(await lastUsed('api_keys', apiKey!.id)).toBe(1_800_000_005_000);
  });

  it('ignores ids that name nothing (a CIMD client has no record)', async () => {
    await expect(
      clients.client.recordClientUsage({
        uses: [
          { id: '', usedAt: 1_800_000_000_000n },
          { id: 'https://app.example/client.json', usedAt: 1_800_000_000_000n },
          { id: '00000000-0000-4000-8000-000000000000', usedAt: 1_800_000_000_000n },
        ],
      }),
    ).resolves.toEqual(expect.anything());
  });
});
