import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, webApp } from '../support/clients.js';
import { useDevelopers } from '../support/use-developers.js';
import {
  basicAuth,
  INVALID_CLIENT,
  machineClient,
  newClient,
  requestToken,
  type FormField,
  type TokenResponse,
} from '../support/tokens.js';

// interface.md 5 and 7 end to end: client authentication at /oauth/token by the clients service, and
// the cache in front of it invalidated on every change (docs/decisions.md #21, #28).
const developers = useDevelopers({ REGISTER_CLIENT_RATE_LIMIT: '1000' });

const clientCredentials: FormField = ['grant_type', 'client_credentials'];
const token = (fields: FormField[], headers: Record<string, string> = {}) =>
  requestToken(developers.suite, fields, headers);
const newMachine = (body: Record<string, unknown> = machineClient) =>
  newClient(developers.suite, developers.alice.token, body);
const asAlice = (method: string, path: string, body?: unknown) =>
  call(developers.suite, method, path, { token: developers.alice.token, ...(body ? { body } : {}) });

/**
 * RFC 6749 section 5.2: 401 invalid_client, bare (docs/decisions.md #21), with a Basic challenge
 * when the client tried Basic and none otherwise.
 */
function expectInvalidClient(response: TokenResponse, { triedBasic }: { triedBasic: boolean }): void {
  expect({ status: response.status, body: response.body }).toEqual({ status: 401, body: INVALID_CLIENT });
  expect(response.headers.get('www-authenticate')).toBe(triedBasic ? 'Basic realm="authz"' : null);
  expect(response.headers.get('cache-control')).toBe('no-store');
}

describe('who may authenticate (interface.md 5)', () => {
  it('accepts a public client on its client_id alone: the grant decides (invalid_grant, not 401)', async () => {
    const client = await newClient(developers.suite, developers.alice.token, {
      ...webApp,
      tokenEndpointAuthMethod: 'none',
    });
    const response = await token([
      ['grant_type', 'refresh_token'],
      ['client_id', client.clientId],
      ['refresh_token', 'b'.repeat(64)],
    ]);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_grant', code: 'INVALID_GRANT', statusCode: 400 });

    // A public client has no secret to send.
    expectInvalidClient(
      await token([
        ['grant_type', 'refresh_token'],
        ['client_id', client.clientId],
        ['client_secret', 'anything'],
        ['refresh_token', 'b'.repeat(64)],
      ]),
      { triedBasic: false },
    );
  });

  it('refuses a Basic header and a body client_id that disagree', async () => {
    const client = await newMachine();
    const other = await newMachine();
    expectInvalidClient(
      await token(
        [clientCredentials, ['client_id', other.clientId]],
        basicAuth(client.clientId, client.clientSecret!),
      ),
      { triedBasic: true },
    );
    // Agreeing ones are fine: Basic wins and the body only names the same client.
    const agreeing = await token(
      [clientCredentials, ['client_id', client.clientId]],
      basicAuth(client.clientId, client.clientSecret!),
    );
    expect(agreeing.status).toBe(200);
  });

  it('refuses a wrong secret, an unknown client and a secret sent with the wrong method alike', async () => {
    const basicClient = await newMachine();
    const postClient = await newMachine({ ...machineClient, tokenEndpointAuthMethod: 'client_secret_post' });
    const attempts: [string, FormField[], Record<string, string>][] = [
      ['wrong secret', [clientCredentials], basicAuth(basicClient.clientId, 'f'.repeat(64))],
      ['unknown client', [clientCredentials], basicAuth(randomUUID(), basicClient.clientSecret!)],
      [
        'post for a basic client',
        [
          clientCredentials,
          ['client_id', basicClient.clientId],
          ['client_secret', basicClient.clientSecret!],
        ],
        {},
      ],
      [
        'basic for a post client',
        [clientCredentials],
        basicAuth(postClient.clientId, postClient.clientSecret!),
      ],
      ['no credentials', [clientCredentials], {}],
      ['malformed Basic header', [clientCredentials], { authorization: 'Basic !!!' }],
      ['the first-party client with a secret', [clientCredentials], basicAuth('authz-first-party', 'x')],
    ];
    for (const [attempt, fields, headers] of attempts) {
      const response = await token(fields, headers);
      const triedBasic = headers.authorization !== undefined;
      expect({
        attempt,
        status: response.status,
        body: response.body,
        challenge: response.headers.get('www-authenticate'),
      }).toEqual({
        attempt,
        status: 401,
        body: INVALID_CLIENT,
        challenge: triedBasic ? 'Basic realm="authz"' : null,
      });
    }
    // Both still authenticate with their own method.
    expect(
      (await token([clientCredentials], basicAuth(basicClient.clientId, basicClient.clientSecret!))).status,
    ).toBe(200);
  });
});

describe('changes take effect on the very next request (docs/decisions.md #28)', () => {
  it('a disabled client is refused, and accepted again once enabled', async () => {
    const client = await newMachine();
    const basic = basicAuth(client.clientId, client.clientSecret!);
    expect((await token([clientCredentials], basic)).status).toBe(200);
    expect((await token([clientCredentials], basic)).status).toBe(200);

    expect((await asAlice('PATCH', `/api/clients/${client.id}`, { enabled: false })).status).toBe(200);
    expectInvalidClient(await token([clientCredentials], basic), { triedBasic: true });

    expect((await asAlice('PATCH', `/api/clients/${client.id}`, { enabled: true })).status).toBe(200);
    expect((await token([clientCredentials], basic)).status).toBe(200);
  });

  it('a regenerated secret replaces the old one at once', async () => {
    const client = await newMachine();
    const oldSecret = basicAuth(client.clientId, client.clientSecret!);
    expect((await token([clientCredentials], oldSecret)).status).toBe(200);

    const regenerated = await asAlice('POST', `/api/clients/${client.id}/regenerate-secret`);
    expect(regenerated.status).toBe(200);
    expectInvalidClient(await token([clientCredentials], oldSecret), { triedBasic: true });
    const newSecret = basicAuth(client.clientId, regenerated.body.clientSecret as string);
    expect((await token([clientCredentials], newSecret)).status).toBe(200);
  });

  it('a deleted client is refused at once', async () => {
    const client = await newMachine();
    const basic = basicAuth(client.clientId, client.clientSecret!);
    expect((await token([clientCredentials], basic)).status).toBe(200);

    expect((await asAlice('DELETE', `/api/clients/${client.id}`)).status).toBe(204);
    expectInvalidClient(await token([clientCredentials], basic), { triedBasic: true });
  });

  it('a scope change applies to the next request', async () => {
    const client = await newMachine();
    const basic = basicAuth(client.clientId, client.clientSecret!);
    expect((await token([clientCredentials, ['scope', 'email']], basic)).status).toBe(200);

    expect((await asAlice('PATCH', `/api/clients/${client.id}`, { scopes: ['profile'] })).status).toBe(200);
    const refused = await token([clientCredentials, ['scope', 'email']], basic);
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
  });
});
