import { randomUUID } from 'node:crypto';
import { TestDocumentServer } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, expectedView, validationError } from '../support/clients.js';
import { useCodeFlow } from '../support/code-flow.js';
import { requestToken } from '../support/tokens.js';
import { DEVICE_GRANT } from './device-scene.js';

// docs/device-grant.md #8: the developer API, dynamic registration and client ID metadata
// documents take the device grant; a client whose only user grant it is needs no redirect URI.
const flow = useCodeFlow({}, { CIMD_ENABLED: 'true', CIMD_ALLOW_INSECURE_LOOPBACK: 'true' });
let documents: TestDocumentServer;

beforeAll(async () => {
  documents = await TestDocumentServer.start();
});
afterAll(() => documents.close());

describe('device clients', () => {
  it('are created through the developer API without redirect URIs or response types', async () => {
    const created = await createClient(flow.suite, flow.developer, {
      name: 'CLI',
      grantTypes: [DEVICE_GRANT, 'refresh_token'],
      scopes: ['openid'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(
      expectedView({
        name: 'CLI',
        scopes: ['openid'],
        grantTypes: [DEVICE_GRANT, 'refresh_token'],
        responseTypes: [],
      }),
    );
  });

  it.each([
    [
      'refresh_token alone',
      { grantTypes: ['refresh_token'], responseTypes: [] },
      [
        { path: 'redirectUris', message: 'at least one is required for authorization_code or refresh_token' },
        { path: 'grantTypes', message: 'refresh_token requires authorization_code' },
      ],
    ],
    [
      'the code response type without authorization_code',
      { grantTypes: [DEVICE_GRANT], responseTypes: ['code'] },
      [{ path: 'responseTypes', message: 'code requires the authorization_code grant' }],
    ],
    [
      'authorization_code beside it without a redirect URI',
      { grantTypes: [DEVICE_GRANT, 'authorization_code'] },
      [{ path: 'redirectUris', message: 'at least one is required for authorization_code or refresh_token' }],
    ],
  ])('refuses %s', async (_name, settings, details) => {
    const created = await createClient(flow.suite, flow.developer, { name: 'CLI', ...settings });
    expect({ status: created.status, body: created.body }).toEqual({
      status: 400,
      body: validationError(details),
    });
  });

  it('are registered dynamically with grant_types', async () => {
    const registered = await fetch(`${flow.suite.baseUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Agent CLI',
        grant_types: [DEVICE_GRANT],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(registered.status).toBe(201);
    expect(await registered.json()).toMatchObject({
      client_name: 'Agent CLI',
      grant_types: [DEVICE_GRANT],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'none',
    });
  });

  it('may be client ID metadata documents', async () => {
    const path = `/apps/${randomUUID()}/client.json`;
    const clientId = documents.url(path);
    documents.serve(path, {
      body: { client_id: clientId, client_name: 'Doc TV', grant_types: [DEVICE_GRANT], scope: 'openid' },
    });
    const started = await fetch(`${flow.suite.baseUrl}/oauth/device_authorization`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId }).toString(),
    });
    expect(started.status).toBe(200);
    const { device_code } = (await started.json()) as { device_code: string };
    const poll = await requestToken(flow.suite, [
      ['grant_type', DEVICE_GRANT],
      ['device_code', device_code],
      ['client_id', clientId],
    ]);
    expect(poll.body).toEqual({
      error: 'authorization_pending',
      code: 'AUTHORIZATION_PENDING',
      statusCode: 400,
    });
  });
});
