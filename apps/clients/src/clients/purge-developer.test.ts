import { ValidationError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const machine = {
  name: 'Machine',
  grantTypes: { values: ['client_credentials'] },
  responseTypes: { values: [] },
  tokenEndpointAuthMethod: 'client_secret_basic',
};

describe('DeveloperDataService.PurgeDeveloper (interface.md 4.10, docs/identity.md #19)', () => {
  it("deletes the developer's clients with their API keys, tells the caches, and nobody else's", async () => {
    const owner = newOwner();
    const bystander = newOwner();
    const first = (await clients.client.createClient({ owner, settings: machine })).client!;
    const second = (await clients.client.createClient({ owner, settings: machine })).client!;
    const kept = (await clients.client.createClient({ owner: bystander, settings: machine })).client!;
    await clients.client.createApiKey({ client: { owner, id: first.id }, name: 'ci' });

    expect(await clients.developerData.purgeDeveloper({ developerId: owner.developerId })).toMatchObject({
      deletedClients: 2,
    });
    const { rows } = await clients.sql.query(
      `SELECT (SELECT count(*) FROM clients.clients WHERE developer_id = $1)::int AS clients,
              (SELECT count(*) FROM clients.api_keys WHERE client_id = $2)::int AS keys`,
      [owner.developerId, first.id],
    );
    expect(rows).toEqual([{ clients: 0, keys: 0 }]);
    for (const { clientId } of [first, second]) {
      await eventually(() =>
        clients.invalidations.find(
          (message) => message.clientId === clientId && message.reason === 'deleted',
        ),
      );
    }
    expect((await clients.client.listClients({ owner: bystander })).clients.map(({ id }) => id)).toEqual([
      kept.id,
    ]);

    // Idempotent: a repeat after a crash finds nothing left.
    expect(await clients.developerData.purgeDeveloper({ developerId: owner.developerId })).toMatchObject({
      deletedClients: 0,
    });
  });

  it('refuses a malformed developer id', async () => {
    expect(await rejection(clients.developerData.purgeDeveloper({ developerId: 'nope' }))).toBeInstanceOf(
      ValidationError,
    );
  });
});
