import { InvalidClientError, InvalidScopeError, UnauthorizedClientError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeClients, type FakeClient } from '../../test/fake-clients.js';
import { FakeIdentity } from '@authz/shared/testing/fake-identity';
import { oauthTestSource, startOAuth, type RunningOAuth } from '../../test/oauth-harness.js';

// The token endpoint with clients authenticated by the clients service (docs/tokens.md #16-#19).
const environment = useTestEnvironment();
const origin = { ip: '203.0.113.7', userAgent: 'vitest' };

let identity: FakeIdentity;
let clients: FakeClients;
let oauth: RunningOAuth;
let backend: FakeClient;

beforeAll(async () => {
  identity = new FakeIdentity();
  clients = new FakeClients();
  backend = clients.addClient({
    method: 'client_secret_basic',
    secret: 'backend-secret',
    grantTypes: ['client_credentials'],
    scopes: ['read', 'write'],
    audience: ['https://api.example'],
  });
  const source = oauthTestSource(environment, await identity.start(), await clients.start());
  oauth = await startOAuth({ ...source, CLIENT_USAGE_FLUSH_INTERVAL_MS: '20' });
  await oauth.app.clientInvalidations.whenSubscribed();
});

afterAll(async () => {
  await oauth?.close();
  await identity?.close();
  await clients?.close();
});

function clientCredentials(client: FakeClient, extra: [string, string][] = [], secret = client.secret!) {
  const parameters = [['grant_type', 'client_credentials'], ...extra].map(([name, value]) => ({
    name: name!,
    value: value!,
  }));
  return oauth.tokens.token({
    parameters,
    basic: { clientId: client.clientId, clientSecret: secret },
    origin,
  });
}

describe('client_credentials through the clients service', () => {
  it('mints a token for the client itself: sub = client_id, no refresh token', async () => {
    const { tokens } = await clientCredentials(backend, [['scope', 'read']]);
    expect(tokens).toMatchObject({ expiresIn: 900, tokenType: 'Bearer', scope: 'read' });
    expect(tokens!.refreshToken).toBeUndefined();
    const { payload } = await oauth.verifyWithJwks(tokens!.accessToken);
    expect(payload).toMatchObject({
      sub: backend.clientId,
      client_id: backend.clientId,
      aud: 'https://api.example',
      scope: 'read',
    });
    expect(payload).not.toHaveProperty('email');
  });

  it('refuses scopes outside the allow-list and grants the client may not use', async () => {
    await expect(clientCredentials(backend, [['scope', 'admin']])).rejects.toBeInstanceOf(InvalidScopeError);
    const other = clients.addClient({
      method: 'client_secret_post',
      secret: 's',
      grantTypes: ['refresh_token'],
    });
    await expect(
      oauth.tokens.token({
        parameters: [
          { name: 'grant_type', value: 'client_credentials' },
          { name: 'client_id', value: other.clientId },
          { name: 'client_secret', value: 's' },
        ],
        origin,
      }),
    ).rejects.toBeInstanceOf(UnauthorizedClientError);
  });

  it('asks the clients service once for a returning client, never for a failure', async () => {
    const client = clients.addClient({
      method: 'client_secret_basic',
      secret: 'x',
      grantTypes: ['client_credentials'],
    });
    const before = clients.authenticateCalls;
    await clientCredentials(client);
    await clientCredentials(client);
    await clientCredentials(client, [['scope', 'anything']]).catch(() => undefined);
    expect(clients.authenticateCalls - before).toBe(1);

    await expect(clientCredentials(client, [], 'wrong')).rejects.toBeInstanceOf(InvalidClientError);
    await expect(clientCredentials(client, [], 'wrong')).rejects.toBeInstanceOf(InvalidClientError);
    expect(clients.authenticateCalls - before).toBe(3);
  });

  it('reports uses to RecordClientUsage later, not within the request', async () => {
    const client = clients.addClient({
      method: 'client_secret_basic',
      secret: 'y',
      grantTypes: ['client_credentials'],
    });
    const before = Date.now();
    await clientCredentials(client);
    await vi.waitFor(() => expect(clients.reportedUses.map((use) => use.id)).toContain(client.id));
    const use = clients.reportedUses.find((reported) => reported.id === client.id)!;
    expect(Number(use.usedAt)).toBeGreaterThanOrEqual(before);
    expect(use.apiKeyId).toBeUndefined();
  });
});
