import { describe, expect, it } from 'vitest';
import {
  completeAuthorization,
  newAppClient,
  newUser,
  redeemCode,
  useCodeFlow,
} from '../support/code-flow.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import { basicAuth } from '../support/tokens.js';

// RFC 6749 3.1 / 3.2 ("parameters MUST NOT be included more than once") at introspection and
// revocation, through the gateway (docs/security.md #3). The token and authorization
// endpoints are covered in oauth/token-errors.test.ts and authorize/authorize-errors.test.ts.
const flow = useCodeFlow();

async function issuedTokens() {
  const client = await newAppClient(flow);
  const user = await newUser(flow);
  const result = await completeAuthorization(flow, new FormBrowser(), user, { client });
  const tokens = await redeemCode(flow, client, result.code!, result.verifier);
  expect(tokens.status).toBe(200);
  return { client, accessToken: tokens.body.access_token as string };
}

function post(path: string, fields: [string, string][], headers: Record<string, string>) {
  return fetch(`${flow.suite.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('parameters sent twice', () => {
  it('introspection: 400 invalid_request naming the parameter (docs/tokens.md #22)', async () => {
    const { client, accessToken } = await issuedTokens();
    const credentials = basicAuth(client.clientId, client.clientSecret!);
    const repeated: [string, [string, string][]][] = [
      [
        'token',
        [
          ['token', accessToken],
          ['token', accessToken],
        ],
      ],
      [
        'token_type_hint',
        [
          ['token', accessToken],
          ['token_type_hint', 'access_token'],
          ['token_type_hint', 'refresh_token'],
        ],
      ],
    ];
    for (const [name, fields] of repeated) {
      const response = await post('/oauth/introspect', fields, credentials);
      expect({ status: response.status, body: await response.json() }).toEqual({
        status: 400,
        body: {
          error: 'invalid_request',
          error_description: `Parameter ${name} was sent more than once`,
          code: 'INVALID_REQUEST',
          statusCode: 400,
        },
      });
    }
  });

  it('revocation: a token sent twice revokes nothing (interface.md 4.3: the silent 200 of docs/tokens.md #25)', async () => {
    const { client, accessToken } = await issuedTokens();
    const credentials = basicAuth(client.clientId, client.clientSecret!);
    const revoked = await post(
      '/oauth/revoke',
      [
        ['token', accessToken],
        ['token', accessToken],
      ],
      credentials,
    );
    expect(revoked.status).toBe(200);
    const introspected = await post('/oauth/introspect', [['token', accessToken]], credentials);
    expect(await introspected.json()).toMatchObject({ active: true });
  });

  it('revocation: client credentials sent twice are a failed client authentication', async () => {
    const { client, accessToken } = await issuedTokens();
    const response = await post(
      '/oauth/revoke',
      [
        ['token', accessToken],
        ['client_id', client.clientId],
        ['client_id', client.clientId],
        ['client_secret', client.clientSecret!],
      ],
      {},
    );
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 401,
      body: { error: 'invalid_client', code: 'INVALID_CLIENT', statusCode: 401 },
    });
  });
});
