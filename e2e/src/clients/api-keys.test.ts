import { randomUUID } from 'node:crypto';
import { runSetEnvironment } from '@authz/clients';
import { keyedHash } from '@authz/shared/crypto';
import { testLogger } from '@authz/shared/testing';
import { describe, expect, it } from 'vitest';
import { call, NOT_FOUND, UNAUTHORIZED, validationError } from '../support/clients.js';
import { bearerChallenge } from '../support/http.js';
import { useDevelopers } from '../support/use-developers.js';

// interface.md 4.8 end to end, with the operator command of docs/decisions.md #14.
const developers = useDevelopers();

type KeyView = Record<string, unknown> & { id: string; key?: string; revokedAt: number | null };

async function newClient() {
  const { body } = await call<{ id: string; clientId: string }>(developers.suite, 'POST', '/api/clients', {
    token: developers.alice.token,
    body: {
      name: 'Backend',
      grantTypes: ['client_credentials'],
      responseTypes: [],
      tokenEndpointAuthMethod: 'client_secret_post',
    },
  });
  return body;
}

const setEnvironment = (clientId: string, value: string) =>
  runSetEnvironment(
    {
      databaseUrl: developers.environment.databaseUrl,
      redisUrl: developers.environment.redisUrl,
      redisKeyPrefix: developers.environment.redisPrefix,
      log: testLogger(),
    },
    clientId,
    value,
  );

describe('API keys (interface.md 4.8, 2.4, docs/decisions.md #14, #15)', () => {
  it('creates a key shown once, lists it masked, stores only its keyed hash', async () => {
    const client = await newClient();
    const created = await call<KeyView>(developers.suite, 'POST', `/api/clients/${client.id}/api-keys`, {
      token: developers.alice.token,
      body: { name: 'CI pipeline' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const key = created.body.key!;
    expect(key).toMatch(/^ak_[0-9a-f]{64}$/);
    const masked = {
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      clientId: client.clientId,
      name: 'CI pipeline',
      prefix: key.slice(0, 11),
      last4: key.slice(-4),
      createdAt: expect.any(Number),
      lastUsedAt: null,
      revokedAt: null,
    };
    expect(created.body).toEqual({ ...masked, key });

    const listed = await call(developers.suite, 'GET', `/api/clients/${client.clientId}/api-keys/`, {
      token: developers.alice.token,
    });
    expect(listed).toMatchObject({ status: 200, body: { apiKeys: [masked] } });
    expect(JSON.stringify(listed.body)).not.toContain(key);

    const { rows } = await developers.sql.query(
      `SELECT row_to_json(k)::text AS row, key_hash FROM clients.api_keys k`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).toBe(keyedHash(developers.secretHashKey, key));
    expect(rows[0].row).not.toContain(key.slice(11, -4));
  });

  it('revokes with DELETE, idempotently, and keeps the revoked key in the list', async () => {
    const client = await newClient();
    const { body: created } = await call<KeyView>(
      developers.suite,
      'POST',
      `/api/clients/${client.clientId}/api-keys`,
      {
        token: developers.alice.token,
        body: { name: 'temp' },
      },
    );
    const path = `/api/clients/${client.id}/api-keys/${created.id}`;
    const revoked = await call<KeyView>(developers.suite, 'DELETE', path, { token: developers.alice.token });
    const { key: _key, ...masked } = created;
    expect(revoked).toMatchObject({ status: 200, body: { ...masked, revokedAt: expect.any(Number) } });
    expect(revoked.body).not.toHaveProperty('key');
    const again = await call<KeyView>(developers.suite, 'DELETE', `${path}/`, {
      token: developers.alice.token,
    });
    expect(again).toMatchObject({ status: 200, body: revoked.body });
    const listed = await call(developers.suite, 'GET', `/api/clients/${client.id}/api-keys`, {
      token: developers.alice.token,
    });
    expect(listed.body).toEqual({ apiKeys: [revoked.body] });
  });

  it('refuses keys with 403 once the operator moves the client out of development', async () => {
    const client = await newClient();
    const path = `/api/clients/${client.id}/api-keys`;
    const { body: kept } = await call<KeyView>(developers.suite, 'POST', path, {
      token: developers.alice.token,
      body: { name: 'dev' },
    });
    expect(await setEnvironment(client.clientId, 'production')).toEqual({
      clientId: client.clientId,
      revokedKeys: 1,
    });
    expect(
      await call(developers.suite, 'POST', path, { token: developers.alice.token, body: { name: 'prod' } }),
    ).toMatchObject({
      status: 403,
      body: {
        error: 'API keys are only available for clients in the development environment',
        statusCode: 403,
        code: 'FORBIDDEN',
      },
    });
    // Leaving development revoked the key; the list still shows it (interface.md 4.8).
    const listed = await call<{ apiKeys: KeyView[] }>(developers.suite, 'GET', path, {
      token: developers.alice.token,
    });
    expect(listed.body.apiKeys.map((key) => [key.id, key.revokedAt === null])).toEqual([[kept.id, false]]);
    expect(await setEnvironment(client.clientId, 'development')).toEqual({
      clientId: client.clientId,
      revokedKeys: 0,
    });
    expect(
      (
        await call(developers.suite, 'POST', path, {
          token: developers.alice.token,
          body: { name: 'dev again' },
        })
      ).status,
    ).toBe(201);
  });

  it('answers 400 for a bad name, 404 for another developer or an unknown key, 401 without a token', async () => {
    const client = await newClient();
    const path = `/api/clients/${client.id}/api-keys`;
    for (const body of [{}, { name: '' }, { name: 'k'.repeat(256) }]) {
      const response = await call(developers.suite, 'POST', path, { token: developers.alice.token, body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(
        validationError([
          {
            path: 'name',
            message:
              'name' in body ? 'must be 1 to 255 characters long' : "must have required property 'name'",
          },
        ]),
      );
    }
    const { body: key } = await call<KeyView>(developers.suite, 'POST', path, {
      token: developers.alice.token,
      body: { name: 'mine' },
    });
    for (const [method, target, body] of [
      ['POST', path, { name: 'x' }],
      ['GET', path, undefined],
      ['DELETE', `${path}/${key.id}`, undefined],
    ] as const) {
      expect(
        await call(developers.suite, method, target, { token: developers.bob.token, body }),
      ).toMatchObject({
        status: 404,
        body: NOT_FOUND,
      });
      const anonymous = await call(developers.suite, method, target, { body });
      expect(anonymous).toMatchObject({ status: 401, body: UNAUTHORIZED });
      expect(anonymous.headers.get('www-authenticate')).toBe(bearerChallenge(developers.suite.baseUrl));
    }
    for (const target of [
      `${path}/${randomUUID()}`,
      `${path}/not-a-uuid`,
      `/api/clients/${randomUUID()}/api-keys/${key.id}`,
    ]) {
      expect(await call(developers.suite, 'DELETE', target, { token: developers.alice.token })).toMatchObject(
        {
          status: 404,
          body: NOT_FOUND,
        },
      );
    }
    // The key was never touched by those attempts.
    const listed = await call<{ apiKeys: KeyView[] }>(developers.suite, 'GET', path, {
      token: developers.alice.token,
    });
    expect(listed.body.apiKeys[0]?.revokedAt).toBeNull();
  });
});
