import { keyedHash } from '@authz/shared/crypto';
import {
  ForbiddenError,
  InvalidClientMetadataError,
  NotFoundError,
  ValidationError,
} from '@authz/shared/errors';
import { testLogger, useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSetEnvironment } from '../app.js';
import {
  eventually,
  newOwner,
  rejection,
  startClients,
  type ClientsHarness,
} from '../../test/clients-harness.js';

const environment = useTestEnvironment();
let clients: ClientsHarness;

beforeAll(async () => {
  clients = await startClients(environment);
});
afterAll(() => clients.close());

const list = (values: string[]) => ({ values });
const webApp = {
  name: 'Web app',
  redirectUris: list(['https://app.example/callback']),
  tokenEndpointAuthMethod: 'client_secret_basic',
};

describe('ClientsService (interface.md 4.7, docs/decisions.md #14, #16, #22, #28)', () => {
  it('applies the defaults, stores only the secret hash, and answers by record or client id', async () => {
    const owner = newOwner();
    const { client, clientSecret } = await clients.client.createClient({ owner, settings: webApp });
    expect(client).toMatchObject({
      name: 'Web app',
      redirectUris: ['https://app.example/callback'],
      scopes: [],
      grantTypes: ['authorization_code', 'refresh_token'],
      responseTypes: ['code'],
      tokenEndpointAuthMethod: 'client_secret_basic',
      enabled: true,
      requirePkce: true,
    });
    expect(client?.description).toBeUndefined();
    expect(clientSecret).toMatch(/^[0-9a-f]{64}$/);
    const { rows } = await clients.sql.query(
      `SELECT secret_hash, environment, source, developer_id::text FROM clients.clients WHERE id = $1`,
      [client?.id],
    );
    expect(rows).toEqual([
      {
        secret_hash: keyedHash(clients.secretHashKey, clientSecret!),
        environment: 'development',
        source: 'pre_registered',
        developer_id: owner.developerId,
      },
    ]);
    for (const id of [client!.id, client!.clientId, client!.clientId.toUpperCase()]) {
      expect((await clients.client.getClient({ client: { owner, id } })).client?.id).toBe(client?.id);
    }
  });

  it('hides clients of other developers and the first-party client behind one 404', async () => {
    const { client } = await clients.client.createClient({ owner: newOwner(), settings: webApp });
    for (const ref of [
      { owner: newOwner(), id: client!.id },
      { owner: newOwner(), id: 'authz-first-party' },
      { owner: newOwner(), id: 'not-a-uuid' },
    ]) {
      expect(await rejection(clients.client.getClient({ client: ref }))).toBeInstanceOf(NotFoundError);
      expect(await rejection(clients.client.deleteClient({ client: ref }))).toBeInstanceOf(NotFoundError);
    }
    expect((await clients.client.listClients({ owner: newOwner() })).clients).toEqual([]);
  });

  it('reports one violation per rejected field', async () => {
    const error = (await rejection(
      clients.client.createClient({
        owner: newOwner(),
        settings: {
          name: '',
          redirectUris: list(['http://app.example/cb', 'https://ok.example/cb', 'https://x.example/#f']),
          scopes: list(['openid', 'admin']),
          grantTypes: list(['refresh_token', 'client_credentials']),
          responseTypes: list(['token']),
          tokenEndpointAuthMethod: 'private_key_jwt',
          jwksUri: { value: 'http://keys.example/jwks' },
        },
      }),
    )) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details).toEqual([
      { path: 'name', message: 'must be 1 to 255 characters long' },
      {
        path: 'redirectUris.0',
        message:
          'must be an absolute https URL, or http on 127.0.0.1, [::1] or localhost, without a fragment',
      },
      {
        path: 'redirectUris.2',
        message:
          'must be an absolute https URL, or http on 127.0.0.1, [::1] or localhost, without a fragment',
      },
      { path: 'scopes', message: "outside the realm's allowed scopes: admin" },
      { path: 'grantTypes', message: 'refresh_token requires authorization_code' },
      { path: 'responseTypes', message: 'only code is supported' },
      { path: 'jwksUri', message: 'must be an absolute https URL without a fragment' },
    ]);
  });

  it('signs ID tokens with EdDSA by default, RS256 when set, and refuses any other alg (docs/tokens.md #34)', async () => {
    const owner = newOwner();
    const { client: byDefault } = await clients.client.createClient({ owner, settings: webApp });
    expect(byDefault?.idTokenSignedResponseAlg).toBe('EdDSA');
    const { client: rsa } = await clients.client.createClient({
      owner,
      settings: { ...webApp, idTokenSignedResponseAlg: 'RS256' },
    });
    expect(rsa?.idTokenSignedResponseAlg).toBe('RS256');
    const { client: back } = await clients.client.updateClient({
      client: { owner, id: rsa!.id },
      settings: { idTokenSignedResponseAlg: 'EdDSA' },
    });
    expect(back?.idTokenSignedResponseAlg).toBe('EdDSA');
    for (const alg of ['HS256', 'none', 'rs256', 'ES256', '']) {
      const error = (await rejection(
        clients.client.createClient({ owner, settings: { ...webApp, idTokenSignedResponseAlg: alg } }),
      )) as ValidationError;
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.details).toEqual([
        { path: 'idTokenSignedResponseAlg', message: 'must be one of EdDSA, RS256' },
      ]);
    }
    const registered = await clients.client.registerClient({
      metadataJson: JSON.stringify({
        redirect_uris: ['https://rp.example/cb'],
        token_endpoint_auth_method: 'none',
        id_token_signed_response_alg: 'RS256',
      }),
    });
    expect(registered.idTokenSignedResponseAlg).toBe('RS256');
    const refused = await rejection(
      clients.client.registerClient({
        metadataJson: JSON.stringify({
          redirect_uris: ['https://rp.example/cb'],
          token_endpoint_auth_method: 'none',
          id_token_signed_response_alg: 'HS256',
        }),
      }),
    );
    expect(refused).toBeInstanceOf(InvalidClientMetadataError);
    expect((refused as Error).message).toBe('id_token_signed_response_alg: must be one of EdDSA, RS256');
  });

  it('accepts private_key_jwt with a jwks and refuses it without one (docs/decisions.md #16)', async () => {
    const owner = newOwner();
    const jwks = JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'abc' }] });
    const settings = { ...webApp, tokenEndpointAuthMethod: 'private_key_jwt' };
    const { client } = await clients.client.createClient({
      owner,
      settings: { ...settings, jwks: { value: jwks } },
    });
    expect(client?.tokenEndpointAuthMethod).toBe('private_key_jwt');
    const error = (await rejection(clients.client.createClient({ owner, settings }))) as ValidationError;
    expect(error.details).toEqual([
      { path: 'jwks', message: 'jwks or jwksUri is required for private_key_jwt' },
    ]);
    const bad = (await rejection(
      clients.client.createClient({ owner, settings: { ...settings, jwks: { value: '{"keys":[]}' } } }),
    )) as ValidationError;
    expect(bad.details?.[0]?.path).toBe('jwks');
  });

  it('issues, keeps and regenerates no secret for private_key_jwt (docs/clients.md #5)', async () => {
    const owner = newOwner();
    const jwks = { value: JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'abc' }] }) };
    const created = await clients.client.createClient({
      owner,
      settings: { ...webApp, tokenEndpointAuthMethod: 'private_key_jwt', jwks },
    });
    expect(created.clientSecret).toBeUndefined();
    const secretHash = async (id: string | undefined) =>
      (await clients.sql.query(`SELECT secret_hash FROM clients.clients WHERE id = $1`, [id])).rows[0];
    expect(await secretHash(created.client?.id)).toEqual({ secret_hash: null });
    const ref = { owner, id: created.client!.clientId };
    const error = (await rejection(
      clients.client.regenerateClientSecret({ client: ref }),
    )) as ValidationError;
    expect(error.details).toEqual([
      {
        path: 'tokenEndpointAuthMethod',
        message: 'is private_key_jwt: the client authenticates with its keys, not a secret',
      },
    ]);

    const secretClient = await clients.client.createClient({ owner, settings: webApp });
    expect(secretClient.clientSecret).toMatch(/^[0-9a-f]{64}$/);
    await clients.client.updateClient({
      client: { owner, id: secretClient.client!.id },
      settings: { tokenEndpointAuthMethod: 'private_key_jwt', jwks },
    });
    expect(await secretHash(secretClient.client?.id)).toEqual({ secret_hash: null });
  });

  it('publishes an invalidation for every change (docs/decisions.md #28)', async () => {
    const owner = newOwner();
    const { client } = await clients.client.createClient({ owner, settings: webApp });
    const ref = { owner, id: client!.clientId };
    await clients.client.updateClient({ client: ref, settings: { name: 'Renamed' } });
    await clients.client.updateClient({ client: ref, settings: { enabled: false } });
    await clients.client.regenerateClientSecret({ client: ref });
    await clients.client.deleteClient({ client: ref });
    const mine = () => clients.invalidations.filter((message) => message.clientId === client?.clientId);
    await eventually(() => (mine().length === 4 ? true : undefined));
    expect(mine().map((message) => message.reason)).toEqual([
      'updated',
      'disabled',
      'secret_regenerated',
      'deleted',
    ]);
  });

  it('gates API keys on the development environment and revokes them on leaving it', async () => {
    const owner = newOwner();
    const { client } = await clients.client.createClient({ owner, settings: webApp });
    const ref = { owner, id: client!.id };
    const { apiKey, key } = await clients.client.createApiKey({ client: ref, name: 'ci' });
    expect(key).toMatch(/^ak_[0-9a-f]{64}$/);
    expect(apiKey).toMatchObject({
      clientId: client?.clientId,
      prefix: key.slice(0, 11),
      last4: key.slice(-4),
    });
    const { rows } = await clients.sql.query(`SELECT key_hash FROM clients.api_keys WHERE id = $1`, [
      apiKey?.id,
    ]);
    expect(rows).toEqual([{ key_hash: keyedHash(clients.secretHashKey, key) }]);

    const moved = await runSetEnvironment(
      {
        databaseUrl: environment.databaseUrl,
        redisUrl: environment.redisUrl,
        redisKeyPrefix: environment.redisPrefix,
        log: testLogger(),
      },
      client!.clientId,
      'staging',
    );
    expect(moved).toEqual({ clientId: client?.clientId, revokedKeys: 1 });
    const refused = (await rejection(
      clients.client.createApiKey({ client: ref, name: 'again' }),
    )) as ForbiddenError;
    expect(refused).toBeInstanceOf(ForbiddenError);
    expect(refused.message).toBe('API keys are only available for clients in the development environment');
    const { apiKeys } = await clients.client.listApiKeys({ client: ref });
    expect(apiKeys).toHaveLength(1);
    expect(apiKeys[0]?.revokedAt).toBeGreaterThan(0n);
    await eventually(() =>
      clients.invalidations.find(
        (m) => m.clientId === client?.clientId && m.reason === 'environment_changed',
      ),
    );
  });
});
