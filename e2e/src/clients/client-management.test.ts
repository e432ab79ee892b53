import { randomUUID } from 'node:crypto';
import { keyedHash } from '@authz/shared/crypto';
import { describe, expect, it } from 'vitest';
import { call, type ClientView, createClient, NOT_FOUND, validationError } from '../support/clients.js';
import { useDevelopers } from '../support/use-developers.js';

// interface.md 4.7 end to end, one client at a time: read, change, delete, regenerate its secret.
const developers = useDevelopers({ REGISTER_CLIENT_RATE_LIMIT: '1000' });
// The shared budget of interface.md 8 has its own file (rate-limit.test.ts).

const create = (token: string, body?: Record<string, unknown>) => createClient(developers.suite, token, body);

describe('GET, PATCH, DELETE /api/clients/{id} (interface.md 4.7, docs/decisions.md #22)', () => {
  it('finds a client by record id or client id, and 404s for others, unknown ids and the first-party client', async () => {
    const { body: created } = await create(developers.alice.token);
    const { clientSecret: _secret, ...view } = created;
    for (const id of [created.id, created.clientId, `${created.clientId}/`]) {
      expect(
        await call(developers.suite, 'GET', `/api/clients/${id}`, { token: developers.alice.token }),
      ).toMatchObject({
        status: 200,
        body: view,
      });
    }
    for (const [token, id] of [
      [developers.bob.token, created.id],
      [developers.bob.token, created.clientId],
      [developers.alice.token, randomUUID()],
      [developers.alice.token, 'authz-first-party'],
    ] as const) {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const response = await call(developers.suite, method, `/api/clients/${id}`, {
          token,
          ...(method === 'PATCH' ? { body: { name: 'stolen' } } : {}),
        });
        expect({ method, id, status: response.status, body: response.body }).toEqual({
          method,
          id,
          status: 404,
          body: NOT_FOUND,
        });
      }
    }
    expect(
      (await call(developers.suite, 'GET', `/api/clients/${created.id}`, { token: developers.alice.token }))
        .body,
    ).toEqual(view);
  });

  it('PATCH changes only the settable fields present and ignores immutables and unknown keys', async () => {
    const { body: created } = await create(developers.alice.token);
    const patched = await call<ClientView>(developers.suite, 'PATCH', `/api/clients/${created.clientId}/`, {
      token: developers.alice.token,
      body: {
        name: 'Renamed',
        description: null,
        enabled: false,
        scopes: ['profile'],
        clientId: 'mine-now',
        clientSecret: 'f'.repeat(64),
        secret: 'x',
        developerId: randomUUID(),
        id: randomUUID(),
        somethingElse: true,
      },
    });
    expect(patched.status).toBe(200);
    const { clientSecret: _secret, ...view } = created;
    expect(patched.body).toEqual({
      ...view,
      name: 'Renamed',
      enabled: false,
      scopes: ['profile'],
      updatedAt: expect.any(Number),
    });
    expect(patched.body.updatedAt).toBeGreaterThanOrEqual(created.updatedAt as number);
    const { rows } = await developers.sql.query(`SELECT secret_hash FROM clients.clients WHERE id = $1`, [
      created.id,
    ]);
    expect(rows[0].secret_hash).toBe(keyedHash(developers.secretHashKey, created.clientSecret!));
  });

  it('PATCH revalidates the effective configuration', async () => {
    const { body: created } = await create(developers.alice.token);
    const path = `/api/clients/${created.id}`;
    const refused: [Record<string, unknown>, { path: string; message: string }[]][] = [
      [
        { redirectUris: [] },
        [
          {
            path: 'redirectUris',
            message: 'at least one is required for authorization_code or refresh_token',
          },
        ],
      ],
      [
        { grantTypes: ['refresh_token'] },
        [
          { path: 'grantTypes', message: 'refresh_token requires authorization_code' },
          { path: 'responseTypes', message: 'code requires the authorization_code grant' },
        ],
      ],
      [
        { tokenEndpointAuthMethod: 'none', grantTypes: ['client_credentials'] },
        [
          {
            path: 'grantTypes',
            message: 'client_credentials requires a confidential tokenEndpointAuthMethod',
          },
          { path: 'responseTypes', message: 'code requires the authorization_code grant' },
        ],
      ],
      [{ scopes: ['admin'] }, [{ path: 'scopes', message: "outside the realm's allowed scopes: admin" }]],
      [{ name: '' }, [{ path: 'name', message: 'must be 1 to 255 characters long' }]],
      [{ enabled: 'no' }, [{ path: 'enabled', message: 'must be boolean' }]],
    ];
    for (const [body, details] of refused) {
      const response = await call(developers.suite, 'PATCH', path, { token: developers.alice.token, body });
      expect({ body, status: response.status, response: response.body }).toEqual({
        body,
        status: 400,
        response: validationError(details),
      });
    }
    const { clientSecret: _secret, ...view } = created;
    expect((await call(developers.suite, 'GET', path, { token: developers.alice.token })).body).toEqual(view);
  });

  it('DELETE answers 204, then the client is gone', async () => {
    const { body: created } = await create(developers.alice.token);
    const deleted = await call(developers.suite, 'DELETE', `/api/clients/${created.clientId}`, {
      token: developers.alice.token,
    });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeNull();
    expect(
      await call(developers.suite, 'GET', `/api/clients/${created.id}`, { token: developers.alice.token }),
    ).toMatchObject({
      status: 404,
      body: NOT_FOUND,
    });
    expect(
      await call(developers.suite, 'DELETE', `/api/clients/${created.id}`, { token: developers.alice.token }),
    ).toMatchObject({
      status: 404,
      body: NOT_FOUND,
    });
    const { rows } = await developers.sql.query(
      `SELECT count(*)::int AS n FROM clients.clients WHERE id = $1`,
      [created.id],
    );
    expect(rows[0].n).toBe(0);
  });
});

describe('POST /api/clients/{id}/regenerate-secret (interface.md 4.7, 3)', () => {
  it('returns a new secret once, no-store, and only the new hash is stored', async () => {
    const { body: created } = await create(developers.alice.token);
    const regenerated = await call<ClientView>(
      developers.suite,
      'POST',
      `/api/clients/${created.id}/regenerate-secret`,
      {
        token: developers.alice.token,
      },
    );
    expect(regenerated.status).toBe(200);
    expect(regenerated.headers.get('cache-control')).toBe('no-store');
    const { clientSecret: oldSecret, ...view } = created;
    expect(regenerated.body).toEqual({
      ...view,
      updatedAt: expect.any(Number),
      clientSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(regenerated.body.clientSecret).not.toBe(oldSecret);
    const { rows } = await developers.sql.query(`SELECT secret_hash FROM clients.clients WHERE id = $1`, [
      created.id,
    ]);
    expect(rows[0].secret_hash).toBe(keyedHash(developers.secretHashKey, regenerated.body.clientSecret!));
    expect(
      (await call(developers.suite, 'GET', `/api/clients/${created.id}`, { token: developers.alice.token }))
        .body,
    ).not.toHaveProperty('clientSecret');
  });

  it('answers 400 for a public client and 404 for another developer', async () => {
    const { body: spa } = await create(developers.alice.token, {
      name: 'SPA',
      redirectUris: ['https://spa.example/cb'],
    });
    expect(
      await call(developers.suite, 'POST', `/api/clients/${spa.clientId}/regenerate-secret/`, {
        token: developers.alice.token,
      }),
    ).toMatchObject({
      status: 400,
      body: validationError([
        { path: 'tokenEndpointAuthMethod', message: 'is none: a public client has no secret to regenerate' },
      ]),
    });
    const { body: web } = await create(developers.alice.token);
    expect(
      await call(developers.suite, 'POST', `/api/clients/${web.id}/regenerate-secret`, {
        token: developers.bob.token,
      }),
    ).toMatchObject({
      status: 404,
      body: NOT_FOUND,
    });
  });
});
