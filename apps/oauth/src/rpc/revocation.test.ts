import { InvalidClientError, InvalidGrantError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClients, type FakeClient } from '../../test/fake-clients.js';
import { FakeIdentity, type FakeUser } from '@authz/shared/testing/fake-identity';
import { oauthTestSource, startOAuth, type RunningOAuth } from '../../test/oauth-harness.js';
import { RefreshTokenIssuer } from '../../test/refresh-token-issuer.js';
import { form, introspectionBody, origin } from '../../test/token-management.js';

// RFC 7009 at the oauth service (interface.md 2.5, 4.3; docs/tokens.md #24, #25). Refresh tokens of
// confidential clients come from the store: no grant issues them yet.
const environment = useTestEnvironment();

let identity: FakeIdentity;
let clients: FakeClients;
let oauth: RunningOAuth;
let issuer: RefreshTokenIssuer;
let backend: FakeClient;
let stranger: FakeClient;
let alice: FakeUser;

beforeAll(async () => {
  identity = new FakeIdentity();
  alice = identity.addUser('alice@example.com', 'correct horse battery');
  clients = new FakeClients();
  backend = clients.addClient({
    method: 'client_secret_basic',
    secret: 'backend-secret',
    grantTypes: ['client_credentials', 'refresh_token'],
  });
  stranger = clients.addClient({ method: 'client_secret_post', secret: 'stranger-secret', grantTypes: [] });
  const source = oauthTestSource(environment, await identity.start(), await clients.start());
  oauth = await startOAuth(source);
  issuer = new RefreshTokenIssuer(source, oauth.app.keys);
});

afterAll(async () => {
  await issuer?.close();
  await oauth?.close();
  await identity?.close();
  await clients?.close();
});

function credentialsOf(client: FakeClient) {
  return client.method === 'client_secret_basic'
    ? { basic: { clientId: client.clientId, clientSecret: client.secret! }, fields: [] }
    : {
        fields: [
          ['client_id', client.clientId],
          ['client_secret', client.secret!],
        ] as [string, string][],
      };
}

async function revokeAs(client: FakeClient, fields: [string, string][]) {
  const { basic, fields: credentials } = credentialsOf(client);
  return oauth.tokens.revoke({
    parameters: form([...fields, ...credentials]),
    ...(basic ? { basic } : {}),
    origin,
  });
}

async function isActive(token: string): Promise<boolean> {
  const { basic } = credentialsOf(backend);
  const response = await oauth.tokens.introspect({ parameters: form([['token', token]]), basic, origin });
  return introspectionBody(response).active as boolean;
}

async function clientCredentialsToken(): Promise<string> {
  const { tokens } = await oauth.tokens.token({
    parameters: form([['grant_type', 'client_credentials']]),
    basic: credentialsOf(backend).basic,
    origin,
  });
  return tokens!.accessToken;
}

function refresh(refreshToken: string) {
  return oauth.tokens.token({
    parameters: form([
      ['grant_type', 'refresh_token'],
      ['refresh_token', refreshToken],
    ]),
    basic: credentialsOf(backend).basic,
    origin,
  });
}

describe('access tokens (interface.md 2.5: denied by jti)', () => {
  it('are revoked by their own client, whatever the hint', async () => {
    for (const hint of [[], [['token_type_hint', 'refresh_token']]] as [string, string][][]) {
      const token = await clientCredentialsToken();
      await revokeAs(backend, [['token', token], ...hint]);
      expect(await isActive(token)).toBe(false);
    }
  });

  it('stay active when another client asks; revoking twice is still a success', async () => {
    const token = await clientCredentialsToken();
    await revokeAs(stranger, [['token', token]]);
    expect(await isActive(token)).toBe(true);
    await revokeAs(backend, [['token', token]]);
    await revokeAs(backend, [['token', token]]);
    expect(await isActive(token)).toBe(false);
  });
});

describe('refresh tokens (interface.md 2.5: the whole family)', () => {
  it('revoke the family with its access tokens, under either hint', async () => {
    for (const hint of ['refresh_token', 'access_token']) {
      const family = await issuer.issue({ clientId: backend.clientId, userId: alice.id });
      const rotated = (await refresh(family.refreshToken)).tokens!;
      await revokeAs(backend, [
        ['token', rotated.refreshToken!],
        ['token_type_hint', hint],
      ]);
      await expect(refresh(rotated.refreshToken!)).rejects.toBeInstanceOf(InvalidGrantError);
      expect(await isActive(family.accessToken)).toBe(false);
      expect(await isActive(rotated.accessToken)).toBe(false);
    }
  });

  it('an already rotated token of the family revokes it too', async () => {
    const family = await issuer.issue({ clientId: backend.clientId, userId: alice.id });
    const rotated = (await refresh(family.refreshToken)).tokens!;
    await revokeAs(backend, [['token', family.refreshToken]]);
    expect(await isActive(rotated.refreshToken!)).toBe(false);
  });

  it('are left alone when another client asks', async () => {
    const family = await issuer.issue({ clientId: backend.clientId, userId: alice.id });
    await revokeAs(stranger, [['token', family.refreshToken]]);
    expect(await isActive(family.refreshToken)).toBe(true);
    expect(await isActive(family.accessToken)).toBe(true);
  });
});

describe('everything else succeeds silently (interface.md 4.3)', () => {
  it('missing, empty, unknown, malformed and repeated tokens', async () => {
    const token = await clientCredentialsToken();
    const requests: [string, string][][] = [
      [],
      [['token', '']],
      [['token', 'a'.repeat(64)]],
      [['token', 'garbage']],
      [
        ['token_type_hint', 'id_token'],
        ['token', 'garbage'],
      ],
      [
        ['token', token],
        ['token', token],
      ],
    ];
    for (const fields of requests) await expect(revokeAs(backend, fields)).resolves.toBeDefined();
    // The repeated token was not revoked: the request named no single token.
    expect(await isActive(token)).toBe(true);
  });

  it('but not a failed client authentication', async () => {
    const token = await clientCredentialsToken();
    const refusals: [string, string][][] = [
      [['token', token]],
      [
        ['token', token],
        ['client_id', backend.clientId],
        ['client_secret', 'wrong'],
      ],
      [
        ['token', token],
        ['client_id', stranger.clientId],
        ['client_id', stranger.clientId],
        ['client_secret', stranger.secret!],
      ],
      [
        ['token', token],
        ['client_id', 'authz-first-party'],
      ],
    ];
    for (const fields of refusals) {
      const refusal = oauth.tokens.revoke({ parameters: form(fields), origin });
      await expect(refusal).rejects.toBeInstanceOf(InvalidClientError);
    }
    expect(await isActive(token)).toBe(true);
  });
});
