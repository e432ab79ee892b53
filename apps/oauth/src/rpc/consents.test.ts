import { InvalidGrantError, NotFoundError, UnauthorizedError, type AppError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeFlow } from '../../test/code-flow.js';
import { FakeClients, type FakeClient } from '../../test/fake-clients.js';
import { FakeIdentity, type FakeUser } from '@authz/shared/testing/fake-identity';
import { oauthTestSource, startOAuth, type RunningOAuth } from '../../test/oauth-harness.js';
import { openTestRegistry } from '../../test/test-registry.js';
import { form, origin } from '../../test/token-management.js';

// interface.md 2.3 and 4.6 (docs/authorization.md #10, #15).
const environment = useTestEnvironment();

let identity: FakeIdentity;
let clients: FakeClients;
let oauth: RunningOAuth;
let flow: CodeFlow;
let test: ReturnType<typeof openTestRegistry>;

beforeAll(async () => {
  identity = new FakeIdentity();
  clients = new FakeClients();
  const source = oauthTestSource(environment, await identity.start(), await clients.start());
  oauth = await startOAuth(source);
  flow = new CodeFlow(oauth, identity);
  test = openTestRegistry(source, oauth.app.keys);
});

afterAll(async () => {
  await test?.close();
  await oauth?.close();
  await identity?.close();
  await clients?.close();
});

function newClient(name: string, grantTypes = ['authorization_code', 'refresh_token']): FakeClient {
  return clients.addClient({
    method: 'client_secret_basic',
    secret: 's',
    grantTypes,
    scopes: ['openid', 'email'],
    redirectUris: ['https://app.example/cb'],
    name,
  });
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  return promise.then(
    () => expect.fail('expected a refusal'),
    (error: AppError) => error,
  );
}

const list = (user: FakeUser) =>
  oauth.authorization.listConsents({ userId: user.id }).then((r) => r.consents);
const revoke = (user: FakeUser, consentId: string) =>
  oauth.authorization.revokeConsent({ userId: user.id, consentId });
const verify = (accessToken: string) =>
  oauth.tokens.verifyAccessToken({ accessToken, requireFirstPartyUser: false });

function refresh(client: FakeClient, refreshToken: string) {
  return oauth.tokens.token({
    parameters: form([
      ['grant_type', 'refresh_token'],
      ['refresh_token', refreshToken],
    ]),
    basic: { clientId: client.clientId, clientSecret: client.secret! },
    origin,
  });
}

describe('ListConsents', () => {
  it("lists the user's live consents, newest grant first", async () => {
    const user = identity.addUser('list@example.com', 'pw');
    const [first, second] = [newClient('First'), newClient('Second')];
    const before = Date.now();
    await flow.obtainCode(first, user, { scope: 'openid' });
    await flow.obtainCode(second, user, { scope: 'openid email' });
    const consents = await list(user);
    expect(consents.map(({ clientId, clientName, scopes }) => ({ clientId, clientName, scopes }))).toEqual([
      { clientId: second.clientId, clientName: 'Second', scopes: ['openid', 'email'] },
      { clientId: first.clientId, clientName: 'First', scopes: ['openid'] },
    ]);
    for (const { grantedAt, id } of consents) {
      expect(Number(grantedAt)).toBeGreaterThanOrEqual(before);
      expect(Number(grantedAt)).toBeLessThanOrEqual(Date.now());
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
    // A new grant updates grantedAt and the union of scopes; the consent keeps its id.
    await flow.obtainCode(first, user, { scope: 'email' });
    const updated = await list(user);
    expect(updated.map(({ clientId, scopes }) => ({ clientId, scopes }))).toEqual([
      { clientId: first.clientId, scopes: ['openid', 'email'] },
      { clientId: second.clientId, scopes: ['openid', 'email'] },
    ]);
    expect(updated[0]?.id).toBe(consents[1]?.id);
    expect(await list(identity.addUser('nobody@example.com', 'pw'))).toEqual([]);
  });

  it('keeps one live consent per user and client under concurrent grants, with every scope', async () => {
    const user = identity.addUser('race@example.com', 'pw');
    const grant = (scopes: string[]) =>
      test.registry.consents.grant({
        userId: user.id,
        clientId: 'race-client',
        clientName: 'Race',
        scopes,
        grantedAt: new Date(),
      });
    const results = await Promise.all([grant(['a']), grant(['b']), grant(['c', 'a'])]);
    expect(new Set(results.map(({ id }) => id)).size).toBe(1);
    const [live] = await list(user);
    expect(live?.scopes.sort()).toEqual(['a', 'b', 'c']);
    expect(await list(user)).toHaveLength(1);
  });
});

describe('RevokeConsent', () => {
  it('revokes the consent, its refresh-token families and the live access tokens issued under it', async () => {
    const user = identity.addUser('revoke@example.com', 'pw');
    const client = newClient('Revoked');
    const obtained = await flow.obtainCode(client, user);
    const tokens = await flow.redeem(client, obtained.code, obtained.verifier);
    const rotated = (await refresh(client, tokens.refreshToken!)).tokens!;
    const pending = await flow.obtainCode(client, user, {}, obtained.session);
    const [consent] = await list(user);

    await revoke(user, consent!.id);
    expect(await list(user)).toEqual([]);
    expect(await refusal(refresh(client, rotated.refreshToken!))).toBeInstanceOf(InvalidGrantError);
    for (const accessToken of [tokens.accessToken, rotated.accessToken]) {
      expect(await refusal(verify(accessToken))).toBeInstanceOf(UnauthorizedError);
    }
    // A code issued under it is dead too.
    expect(await refusal(flow.redeem(client, pending.code, pending.verifier))).toBeInstanceOf(
      InvalidGrantError,
    );
    // The next authorization asks again and gets a new consent.
    const again = await flow.obtainCode(client, user, {}, obtained.session);
    await flow.redeem(client, again.code, again.verifier);
    const [renewed] = await list(user);
    expect(renewed?.id).not.toBe(consent!.id);
  });

  it('denies the access token of a client without refresh tokens', async () => {
    const user = identity.addUser('norefresh@example.com', 'pw');
    const client = newClient('Access only', ['authorization_code']);
    const { code, verifier } = await flow.obtainCode(client, user);
    const { accessToken, refreshToken } = await flow.redeem(client, code, verifier);
    expect(refreshToken).toBeUndefined();
    const [consent] = await list(user);
    await revoke(user, consent!.id);
    expect(await refusal(verify(accessToken))).toBeInstanceOf(UnauthorizedError);
  });

  it("answers NotFound for unknown, malformed, revoked and other users' consents", async () => {
    const owner = identity.addUser('owner@example.com', 'pw');
    const intruder = identity.addUser('intruder@example.com', 'pw');
    const client = newClient('Owned');
    const { code, verifier } = await flow.obtainCode(client, owner);
    const { refreshToken } = await flow.redeem(client, code, verifier);
    const [consent] = await list(owner);
    for (const [user, id] of [
      [intruder, consent!.id],
      [owner, '00000000-0000-4000-8000-000000000000'],
      [owner, 'not-a-uuid'],
      [owner, ''],
    ] as const) {
      expect(await refusal(revoke(user, id))).toBeInstanceOf(NotFoundError);
    }
    // The intruder's attempt changed nothing.
    expect((await refresh(client, refreshToken!)).tokens?.refreshToken).toEqual(expect.any(String));
    await revoke(owner, consent!.id);
    expect(await refusal(revoke(owner, consent!.id))).toBeInstanceOf(NotFoundError);
  });
});
