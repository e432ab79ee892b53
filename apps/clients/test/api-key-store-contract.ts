import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newClient, newKey, type ClientsStores } from './client-store-contract.js';

/** The behaviour every ApiKeyStore must show (docs/conventions.md #7). */
export function describeApiKeyStore(name: string, stores: () => ClientsStores): void {
  const apiKeys = () => stores().apiKeys;
  const aClient = async () => (await stores().clients.create(newClient())).id;

  describe(`${name} (ApiKeyStore contract)`, () => {
    it('stores a key as given and lists the keys of its client only, oldest first', async () => {
      const clientId = await aClient();
      const first = newKey(clientId, 'first');
      const created = await apiKeys().create(first);
      expect(created).toMatchObject({ ...first, lastUsedAt: null, revokedAt: null });
      const second = await apiKeys().create(newKey(clientId, 'second'));
      await apiKeys().create(newKey(await aClient()));
      expect(await apiKeys().listForClient(clientId)).toEqual([created, second]);
      expect(await apiKeys().listForClient(randomUUID())).toEqual([]);
    });

    it('finds the id of a live key by hash, for its own client only', async () => {
      const clientId = await aClient();
      const key = await apiKeys().create(newKey(clientId));
      expect(await apiKeys().findLiveId(clientId, key.keyHash)).toBe(key.id);
      expect(await apiKeys().findLiveId(await aClient(), key.keyHash)).toBeUndefined();
      expect(await apiKeys().findLiveId(clientId, randomUUID())).toBeUndefined();
    });

    it('revokes once, even concurrently, and keeps the row', async () => {
      const clientId = await aClient();
      const key = await apiKeys().create(newKey(clientId));
      const at = new Date('2030-01-01T00:00:00.000Z');
      const results = await Promise.all([
        apiKeys().revoke(clientId, key.id, at),
        apiKeys().revoke(clientId, key.id, at),
      ]);
      expect(results.map((result) => result?.revoked).sort()).toEqual([false, true]);
      expect(results.map((result) => result?.apiKey.revokedAt)).toEqual([at, at]);
      const again = await apiKeys().revoke(clientId, key.id, new Date('2031-01-01T00:00:00.000Z'));
      expect(again).toEqual({ apiKey: { ...key, revokedAt: at }, revoked: false });
      expect(await apiKeys().findLiveId(clientId, key.keyHash)).toBeUndefined();
    });

    it("does not revoke another client's key or an unknown one", async () => {
      const clientId = await aClient();
      const key = await apiKeys().create(newKey(clientId));
      expect(await apiKeys().revoke(await aClient(), key.id, new Date())).toBeUndefined();
      expect(await apiKeys().revoke(clientId, randomUUID(), new Date())).toBeUndefined();
      expect(await apiKeys().findLiveId(clientId, key.keyHash)).toBe(key.id);
    });

    it('moves lastUsedAt forward only', async () => {
      const clientId = await aClient();
      const key = await apiKeys().create(newKey(clientId));
      const later = new Date('2030-01-02T00:00:00.000Z');
      await apiKeys().recordUse(key.id, later);
      await apiKeys().recordUse(key.id, new Date('2030-01-01T00:00:00.000Z'));
      expect((await apiKeys().listForClient(clientId))[0]?.lastUsedAt).toEqual(later);
    });
  });
}
