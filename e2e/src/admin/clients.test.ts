import { describe, expect, it } from 'vitest';
import { call } from '../support/clients.js';
import { requestToken } from '../support/tokens.js';
import { useDevelopers } from '../support/use-developers.js';
import { adminCall, newAdmin, type Account, type AuditEventView } from '../support/admin-scenes.js';

// interface.md 4.15 clients of every developer: the list across developers and the changes of
// docs/admin-api.md #11 (the environment by the set-environment command's rules).
const developers = useDevelopers({ REGISTER_CLIENT_RATE_LIMIT: '1000', LOGIN_RATE_LIMIT: '1000' });

interface AdminClientView {
  id: string;
  clientId: string;
  developerId: string | null;
  environment: string;
  enabled: boolean;
}

async function backend(token: string) {
  const { body } = await call<{ id: string; clientId: string; clientSecret: string }>(
    developers.suite,
    'POST',
    '/api/clients',
    {
      token,
      body: {
        name: 'Backend',
        grantTypes: ['client_credentials'],
        responseTypes: [],
        tokenEndpointAuthMethod: 'client_secret_post',
      },
    },
  );
  return body;
}

const clientCredentials = (clientId: string, secret: string) =>
  requestToken(developers.suite, [
    ['grant_type', 'client_credentials'],
    ['client_id', clientId],
    ['client_secret', secret],
  ]);

let admin: Account | undefined;
const theAdmin = async () => (admin ??= await newAdmin(developers.suite, developers.environment.databaseUrl));

describe('GET /admin/clients', () => {
  it("lists every developer's clients, oldest first, and one developer's with developerId", async () => {
    const operator = await theAdmin();
    const alices = [await backend(developers.alice.token), await backend(developers.alice.token)];
    const bobs = await backend(developers.bob.token);
    const all: AdminClientView[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: { status: number; body: { clients: AdminClientView[]; nextCursor: string | null } } =
        await adminCall(
          developers.suite,
          operator,
          'GET',
          `/admin/clients?limit=2&cursor=${encodeURIComponent(cursor)}`,
        );
      expect(page.status).toBe(200);
      expect(page.body.clients.length).toBeLessThanOrEqual(2);
      all.push(...page.body.clients);
      cursor = page.body.nextCursor;
    }
    const ids = all.map((client) => client.id);
    expect(ids).toEqual(expect.arrayContaining([...alices.map((client) => client.id), bobs.id]));
    expect(new Set(ids).size).toBe(ids.length);
    const alice = all.find((client) => client.id === alices[0]!.id)!;
    expect(alice).toEqual({
      id: alices[0]!.id,
      clientId: alices[0]!.clientId,
      name: 'Backend',
      developerId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      environment: 'development',
      enabled: true,
      tokenEndpointAuthMethod: 'client_secret_post',
      grantTypes: ['client_credentials'],
      redirectUris: [],
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
      lastUsedAt: null,
    });

    const only = await adminCall<{ clients: AdminClientView[] }>(
      developers.suite,
      operator,
      'GET',
      `/admin/clients?developerId=${alice.developerId}`,
    );
    expect(only.body.clients.map((client) => client.id)).toEqual(
      all.filter((client) => client.developerId === alice.developerId).map((client) => client.id),
    );
    expect(only.body.clients.map((client) => client.id)).not.toContain(bobs.id);
  });
});

describe('PATCH /admin/clients/{id}', () => {
  it('leaving development revokes the API keys; the change is audited as the admin', async () => {
    const operator = await theAdmin();
    const client = await backend(developers.alice.token);
    const created = await call<{ key: string }>(
      developers.suite,
      'POST',
      `/api/clients/${client.id}/api-keys`,
      {
        token: developers.alice.token,
        body: { name: 'CI' },
      },
    );
    const apiKey = created.body.key;
    expect((await clientCredentials(client.clientId, apiKey)).status).toBe(200);

    const moved = await adminCall<AdminClientView>(
      developers.suite,
      operator,
      'PATCH',
      `/admin/clients/${client.clientId}`,
      {
        environment: 'production',
      },
    );
    expect(moved).toMatchObject({
      status: 200,
      body: { id: client.id, environment: 'production', enabled: true },
    });
    const refused = await clientCredentials(client.clientId, apiKey);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'invalid_client' });
    // The secret still works: only the development keys went.
    expect((await clientCredentials(client.clientId, client.clientSecret)).status).toBe(200);
    const keys = await call<{ apiKeys: { revokedAt: number | null }[] }>(
      developers.suite,
      'GET',
      `/api/clients/${client.id}/api-keys`,
      { token: developers.alice.token },
    );
    expect(keys.body.apiKeys).toEqual([expect.objectContaining({ revokedAt: expect.any(Number) })]);

    const unknownEnvironment = await adminCall(
      developers.suite,
      operator,
      'PATCH',
      `/admin/clients/${client.id}`,
      {
        environment: 'moon',
      },
    );
    expect(unknownEnvironment).toMatchObject({
      status: 400,
      body: {
        details: [{ path: 'environment', message: 'must be one of development, staging, production, unset' }],
      },
    });

    const events = await adminCall<{ events: AuditEventView[] }>(
      developers.suite,
      operator,
      'GET',
      '/admin/audit-events?type=admin_client_updated&limit=1',
    );
    expect(events.body.events).toEqual([
      expect.objectContaining({
        type: 'admin_client_updated',
        actorUserId: operator.id,
        details: { clientId: client.clientId, environment: 'production', revokedApiKeys: '1' },
      }),
    ]);
  });

  it('a disabled client authenticates nowhere until enabled again', async () => {
    const operator = await theAdmin();
    const client = await backend(developers.bob.token);
    const path = `/admin/clients/${client.id}`;
    expect(
      (await adminCall(developers.suite, operator, 'PATCH', path, { enabled: false })).body,
    ).toMatchObject({
      enabled: false,
    });
    expect((await clientCredentials(client.clientId, client.clientSecret)).status).toBe(401);
    expect(
      (await adminCall(developers.suite, operator, 'PATCH', path, { enabled: true })).body,
    ).toMatchObject({
      enabled: true,
    });
    expect((await clientCredentials(client.clientId, client.clientSecret)).status).toBe(200);
  });
});
