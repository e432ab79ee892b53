import { InvalidClientError, InvalidRequestError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClients, type FakeClient } from '../../test/fake-clients.js';
import { FakeIdentity, type FakeUser } from '@authz/shared/testing/fake-identity';
import { oauthTestSource, startOAuth, type RunningOAuth } from '../../test/oauth-harness.js';
import { RefreshTokenIssuer } from '../../test/refresh-token-issuer.js';
import { form, introspectionBody, origin } from '../../test/token-management.js';

// RFC 7662 at the oauth service (interface.md 4.3, 5; docs/decisions.md #10; docs/tokens.md #22, #23).
// Refresh tokens of confidential clients come from the store: no grant issues them yet.
const environment = useTestEnvironment();

let identity: FakeIdentity;
let clients: FakeClients;
let oauth: RunningOAuth;
let issuer: RefreshTokenIssuer;
let backend: FakeClient;
let resourceServer: FakeClient;
let stranger: FakeClient;
let alice: FakeUser;

beforeAll(async () => {
  identity = new FakeIdentity();
  alice = identity.addUser('alice@example.com', 'correct horse battery');
  clients = new FakeClients();
  resourceServer = clients.addClient({ method: 'client_secret_post', secret: 'rs-secret', grantTypes: [] });
  backend = clients.addClient({
    method: 'client_secret_basic',
    secret: 'backend-secret',
    grantTypes: ['client_credentials', 'refresh_token'],
    scopes: ['read', 'write'],
    audience: [resourceServer.clientId, 'https://api.example'],
  });
  stranger = clients.addClient({ method: 'client_secret_basic', secret: 'stranger-secret', grantTypes: [] });
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

const basic = (client: FakeClient) => ({ clientId: client.clientId, clientSecret: client.secret! });

async function introspectAs(client: FakeClient, fields: [string, string][]) {
  const credentials: [string, string][] =
    client.method === 'client_secret_post'
      ? [
          ['client_id', client.clientId],
          ['client_secret', client.secret!],
        ]
      : [];
  const response = await oauth.tokens.introspect({
    parameters: form([...fields, ...credentials]),
    ...(client.method === 'client_secret_basic' ? { basic: basic(client) } : {}),
    origin,
  });
  return introspectionBody(response);
}

async function clientCredentialsToken(scope?: string): Promise<string> {
  const { tokens } = await oauth.tokens.token({
    parameters: form([
      ['grant_type', 'client_credentials'],
      ...(scope ? [['scope', scope] as [string, string]] : []),
    ]),
    basic: basic(backend),
    origin,
  });
  return tokens!.accessToken;
}

describe('access tokens', () => {
  it('are active to their client, with the token claims and aud kept a list', async () => {
    const token = await clientCredentialsToken('read write');
    const claims = decodeJwt(token);
    expect(await introspectAs(backend, [['token', token]])).toEqual({
      active: true,
      sub: backend.clientId,
      client_id: backend.clientId,
      scope: 'read write',
      aud: [resourceServer.clientId, 'https://api.example'],
      iss: issuer.issuer,
      exp: claims.exp,
      iat: claims.iat,
      token_type: 'Bearer',
    });
  });

  it('are active to a caller named in aud, inactive to any other (docs/decisions.md #10)', async () => {
    const token = await clientCredentialsToken();
    expect(await introspectAs(resourceServer, [['token', token]])).toMatchObject({
      active: true,
      client_id: backend.clientId,
    });
    expect(await introspectAs(stranger, [['token', token]])).toEqual({ active: false });
  });

  it('carry no scope member when the token has none', async () => {
    const result = await introspectAs(backend, [['token', await clientCredentialsToken()]]);
    expect(result).toMatchObject({ active: true, token_type: 'Bearer' });
    expect(result).not.toHaveProperty('scope');
  });

  it('are found whatever the hint says', async () => {
    const token = await clientCredentialsToken();
    for (const hint of ['refresh_token', 'access_token', 'id_token']) {
      expect(
        await introspectAs(backend, [
          ['token', token],
          ['token_type_hint', hint],
        ]),
      ).toMatchObject({
        active: true,
      });
    }
  });
});

describe('refresh tokens (docs/tokens.md #23)', () => {
  it('are active to the family client: sub the user, aud the client, iat of this very token', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { refreshToken } = await issuer.issue({
      clientId: backend.clientId,
      userId: alice.id,
      scope: 'read',
    });
    const result = await introspectAs(backend, [['token', refreshToken]]);
    expect(result).toEqual({
      active: true,
      sub: alice.id,
      client_id: backend.clientId,
      scope: 'read',
      aud: backend.clientId,
      iss: issuer.issuer,
      exp: expect.any(Number),
      iat: expect.any(Number),
      token_type: 'refresh_token',
    });
    const iat = result.iat as number;
    expect(iat).toBeGreaterThanOrEqual(before - 1);
    expect(iat).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
    expect(result.exp as number).toBeGreaterThanOrEqual(before + issuer.refreshTokenTtlSeconds - 1);
  });

  it('carry no scope member when the family has none, and are found under either hint', async () => {
    const { refreshToken } = await issuer.issue({ clientId: backend.clientId, userId: alice.id });
    for (const hint of ['access_token', 'refresh_token']) {
      const result = await introspectAs(backend, [
        ['token', refreshToken],
        ['token_type_hint', hint],
      ]);
      expect(result).toMatchObject({ active: true, token_type: 'refresh_token' });
      expect(result).not.toHaveProperty('scope');
    }
  });

  it('are inactive to any other client, even one named in its access tokens aud', async () => {
    const { refreshToken } = await issuer.issue({ clientId: backend.clientId, userId: alice.id });
    expect(await introspectAs(stranger, [['token', refreshToken]])).toEqual({ active: false });
    expect(await introspectAs(resourceServer, [['token', refreshToken]])).toEqual({ active: false });
  });

  it('are inactive once rotated; the successor is active', async () => {
    const { refreshToken } = await issuer.issue({ clientId: backend.clientId, userId: alice.id });
    const { tokens } = await oauth.tokens.token({
      parameters: form([
        ['grant_type', 'refresh_token'],
        ['refresh_token', refreshToken],
      ]),
      basic: basic(backend),
      origin,
    });
    expect(await introspectAs(backend, [['token', refreshToken]])).toEqual({ active: false });
    expect(await introspectAs(backend, [['token', tokens!.refreshToken!]])).toMatchObject({ active: true });
  });

  it('are inactive when expired or when the family is revoked', async () => {
    const expired = await issuer.issue({
      clientId: backend.clientId,
      userId: alice.id,
      issuedSecondsAgo: issuer.refreshTokenTtlSeconds + 1,
    });
    expect(await introspectAs(backend, [['token', expired.refreshToken]])).toEqual({ active: false });

    const revoked = await issuer.issue({ clientId: backend.clientId, userId: alice.id });
    await oauth.tokens.revoke({
      parameters: form([['token', revoked.refreshToken]]),
      basic: basic(backend),
      origin,
    });
    expect(await introspectAs(backend, [['token', revoked.refreshToken]])).toEqual({ active: false });
  });
});

describe('refusals', () => {
  it('answers { active: false } alone for unknown and malformed tokens', async () => {
    for (const token of ['a'.repeat(64), 'garbage', 'eyJhbGciOiJub25lIn0.e30.']) {
      expect(await introspectAs(backend, [['token', token]])).toEqual({ active: false });
    }
  });

  it('requires token (invalid_request), after authenticating the caller', async () => {
    const missing = oauth.tokens.introspect({ parameters: form([]), basic: basic(backend), origin });
    await expect(missing).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(missing).rejects.toMatchObject({ description: 'token is required' });
    const unauthenticated = oauth.tokens.introspect({ parameters: form([]), origin });
    await expect(unauthenticated).rejects.toBeInstanceOf(InvalidClientError);
  });

  it('refuses public clients, the first-party one included (interface.md 5: shared secrets only)', async () => {
    const token = await clientCredentialsToken();
    const publicClient = clients.addClient({ method: 'none', grantTypes: ['refresh_token'] });
    for (const clientId of [publicClient.clientId, 'authz-first-party']) {
      const attempt = oauth.tokens.introspect({
        parameters: form([
          ['token', token],
          ['client_id', clientId],
        ]),
        origin,
      });
      await expect(attempt).rejects.toBeInstanceOf(InvalidClientError);
    }
  });
});
