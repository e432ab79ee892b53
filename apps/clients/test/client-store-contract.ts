import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ApiKeyStore } from '../src/api-keys/api-key-store.js';
import type { ClientConfig } from '../src/clients/client-config.js';
import type { ClientStore, NewClient } from '../src/clients/client-store.js';

/** The stores a clients contract works on: API keys need a stored client to belong to. */
export interface ClientsStores {
  clients: ClientStore;
  apiKeys: ApiKeyStore;
}

export const config = (overrides: Partial<ClientConfig> = {}): ClientConfig => ({
  name: 'Example',
  description: null,
  redirectUris: ['https://app.example/cb'],
  scopes: ['openid', 'profile'],
  grantTypes: ['authorization_code', 'refresh_token'],
  responseTypes: ['code'],
  tokenEndpointAuthMethod: 'client_secret_basic',
  enabled: true,
  jwks: null,
  jwksUri: null,
  postLogoutRedirectUris: [],
  backchannelLogoutUri: null,
  backchannelLogoutSessionRequired: false,
  idTokenSignedResponseAlg: 'EdDSA',
  requirePushedAuthorizationRequests: false,
  dpopBoundAccessTokens: false,
  ...overrides,
});

export const newClient = (overrides: Partial<NewClient> = {}): NewClient => ({
  config: config(),
  clientId: randomUUID(),
  secretHash: 'hash-of-a-secret',
  developerId: randomUUID(),
  realmId: randomUUID(),
  ...overrides,
});

export const newKey = (clientId: string, name = 'ci') => ({
  clientId,
  name,
  prefix: 'ak_0123abcd',
  last4: 'wxyz',
  keyHash: randomUUID(),
});

/** The behaviour every ClientStore must show (docs/conventions.md #7). */
export function describeClientStore(name: string, stores: () => ClientsStores): void {
  const clients = () => stores().clients;

  describe(`${name} (ClientStore contract)`, () => {
    it('stores a client as given, with the defaults of a pre-registered one', async () => {
      const input = newClient({
        config: config({ description: 'an app', jwksUri: 'https://app.example/jwks' }),
      });
      const created = await clients().create(input);
      expect(created).toMatchObject({
        ...input.config,
        clientId: input.clientId,
        secretHash: 'hash-of-a-secret',
        developerId: input.developerId,
        realmId: input.realmId,
        source: 'pre_registered',
        environment: 'development',
        isAgent: false,
        agentScopeModes: [],
        lastUsedAt: null,
      });
      expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await clients().findByClientId(input.clientId)).toEqual(created);
      expect(await clients().findByClientId(randomUUID())).toBeUndefined();
    });

    it('stores a dynamic registration and inline keys', async () => {
      const jwks = { keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'abc' }] };
      const created = await clients().create(
        newClient({
          config: config({ jwks, tokenEndpointAuthMethod: 'private_key_jwt' }),
          secretHash: null,
          developerId: null,
          realmId: null,
          source: 'dynamic',
          isAgent: true,
          agentScopeModes: ['openid'],
        }),
      );
      expect(await clients().findByClientId(created.clientId)).toMatchObject({
        jwks,
        secretHash: null,
        developerId: null,
        realmId: null,
        source: 'dynamic',
        isAgent: true,
        agentScopeModes: ['openid'],
      });
    });

    it("finds a developer's client by record id or client id, never another developer's", async () => {
      const created = await clients().create(newClient());
      const developerId = created.developerId!;
      expect(await clients().findOwned(developerId, created.id)).toEqual(created);
      expect(await clients().findOwned(developerId, created.clientId)).toEqual(created);
      expect(await clients().findOwned(randomUUID(), created.id)).toBeUndefined();
      expect(await clients().findOwned(developerId, randomUUID())).toBeUndefined();
    });

    it("lists a developer's clients oldest first, and only theirs", async () => {
      const developerId = randomUUID();
      const first = await clients().create(newClient({ developerId }));
      const second = await clients().create(newClient({ developerId }));
      await clients().create(newClient());
      expect((await clients().listOwned(developerId)).map(({ id }) => id)).toEqual([first.id, second.id]);
      expect(await clients().listOwned(randomUUID())).toEqual([]);
    });

    it('updates the configuration and the secret separately', async () => {
      const created = await clients().create(newClient());
      const renamed = await clients().update(created.id, {
        config: config({ name: 'Renamed', enabled: false }),
      });
      expect(renamed).toMatchObject({ name: 'Renamed', enabled: false, secretHash: 'hash-of-a-secret' });
      const rehashed = await clients().update(created.id, { secretHash: 'another-hash' });
      expect(rehashed).toMatchObject({ name: 'Renamed', secretHash: 'another-hash' });
      const publicClient = await clients().update(created.id, {
        config: config({ tokenEndpointAuthMethod: 'none' }),
        secretHash: null,
      });
      expect(publicClient).toMatchObject({
        name: 'Example',
        tokenEndpointAuthMethod: 'none',
        secretHash: null,
      });
      expect(await clients().findByClientId(created.clientId)).toEqual(publicClient);
    });

    it('stores the ID token signing algorithm, EdDSA unless set (docs/tokens.md #34)', async () => {
      const created = await clients().create(
        newClient({ config: config({ idTokenSignedResponseAlg: 'RS256' }) }),
      );
      expect(created.idTokenSignedResponseAlg).toBe('RS256');
      expect((await clients().findByClientId(created.clientId))?.idTokenSignedResponseAlg).toBe('RS256');
      const updated = await clients().update(created.id, {
        config: config({ idTokenSignedResponseAlg: 'EdDSA' }),
      });
      expect(updated?.idTokenSignedResponseAlg).toBe('EdDSA');
    });

    it('deletes a client once, with its API keys', async () => {
      const created = await clients().create(newClient());
      const key = await stores().apiKeys.create(newKey(created.id));
      expect(await clients().delete(created.id)).toBe(true);
      expect(await clients().delete(created.id)).toBe(false);
      expect(await clients().findByClientId(created.clientId)).toBeUndefined();
      expect(await stores().apiKeys.findLiveId(created.id, key.keyHash)).toBeUndefined();
    });

    it('moves lastUsedAt forward only', async () => {
      const created = await clients().create(newClient());
      const later = new Date('2030-01-02T00:00:00.000Z');
      await clients().recordUse(created.id, later);
      await clients().recordUse(created.id, new Date('2030-01-01T00:00:00.000Z'));
      expect((await clients().findByClientId(created.clientId))?.lastUsedAt).toEqual(later);
      await clients().recordUse(randomUUID(), later);
    });

    it('sets the environment by either id, revoking live API keys only when asked', async () => {
      const created = await clients().create(newClient());
      const [live, revoked] = [newKey(created.id, 'live'), newKey(created.id, 'old')];
      await stores().apiKeys.create(live);
      const old = await stores().apiKeys.create(revoked);
      await stores().apiKeys.revoke(created.id, old.id, new Date('2030-01-01T00:00:00.000Z'));

      expect(await clients().setEnvironment(created.clientId, 'staging', null)).toEqual({
        clientId: created.clientId,
        revokedKeys: 0,
      });
      expect((await clients().findByClientId(created.clientId))?.environment).toBe('staging');

      const at = new Date('2031-01-01T00:00:00.000Z');
      expect(await clients().setEnvironment(created.id, 'production', at)).toEqual({
        clientId: created.clientId,
        revokedKeys: 1,
      });
      expect((await clients().findByClientId(created.clientId))?.environment).toBe('production');
      const keys = await stores().apiKeys.listForClient(created.id);
      expect(keys.map(({ name, revokedAt }) => [name, revokedAt])).toEqual([
        ['live', at],
        ['old', new Date('2030-01-01T00:00:00.000Z')],
      ]);
      expect(await clients().setEnvironment(randomUUID(), 'production', at)).toBeUndefined();
    });
  });
}
