import { describe, expect, it } from 'vitest';
import { newUser, useCodeFlow } from '../support/code-flow.js';
import { call, UNAUTHORIZED } from '../support/clients.js';
import { machineClient, newClient, requestToken, basicAuth } from '../support/tokens.js';

// RFC 9700 4.15 (docs/security.md #1): a client cannot pass for a resource owner. Client ids
// are chosen by the server, and a client_credentials token, whose sub is the client's id,
// is refused wherever a user is expected.
const flow = useCodeFlow();

async function clientCredentialsToken(): Promise<{ token: string; clientId: string }> {
  // With openid, so that UserInfo gets as far as looking the subject up (docs/authorization.md #16).
  const machine = await newClient(flow.suite, flow.developer, {
    ...machineClient,
    scopes: ['openid', 'profile'],
  });
  const response = await requestToken(
    flow.suite,
    [
      ['grant_type', 'client_credentials'],
      ['scope', 'openid profile'],
    ],
    basicAuth(machine.clientId, machine.clientSecret!),
  );
  expect(response.status).toBe(200);
  return { token: response.body.access_token as string, clientId: machine.clientId };
}

describe('a client is never taken for a user', () => {
  it('chooses no client id of its own: the server ignores one sent at creation or registration', async () => {
    const user = await newUser(flow);
    const created = await call<{ clientId: string }>(flow.suite, 'POST', '/api/clients/', {
      token: flow.developer,
      body: { ...machineClient, clientId: user.id },
    });
    expect(created.status).toBe(201);
    expect(created.body.clientId).not.toBe(user.id);
    const registered = await call<{ client_id: string }>(flow.suite, 'POST', '/oauth/register', {
      body: { client_id: user.id, redirect_uris: ['https://app.example/callback'] },
    });
    expect(registered.status).toBe(201);
    expect(registered.body.client_id).not.toBe(user.id);
  });

  it('its client_credentials token opens neither the developer API, logout nor UserInfo', async () => {
    const { token } = await clientCredentialsToken();
    expect(await call(flow.suite, 'GET', '/api/clients/', { token })).toMatchObject({
      status: 401,
      body: UNAUTHORIZED,
    });
    expect((await call(flow.suite, 'POST', '/auth/logout', { token })).status).toBe(401);
    const userInfo = await call(flow.suite, 'GET', '/oauth/userinfo', { token });
    expect(userInfo.status).toBe(401);
    expect(userInfo.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });
});
