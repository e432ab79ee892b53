import { InvalidGrantError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeFlow } from '../../../test/code-flow.js';
import { FakeClients, type FakeClient } from '../../../test/fake-clients.js';
import { FakeIdentity, type FakeUser } from '@authz/shared/testing/fake-identity';
import { oauthTestSource, startOAuth, type RunningOAuth } from '../../../test/oauth-harness.js';
import { openTestRegistry } from '../../../test/test-registry.js';
import { origin } from '../../../test/token-management.js';
import type { AuthorizationCodeStore } from '../authorization-code/authorization-code-store.js';
import type { Registry } from '../../registry.js';
import { TokenParameters } from '../token/token-parameters.js';
import { handle } from './authorization-code.js';

// docs/authorization.md #12: a second use that lands before the first recorded what it issued.
const environment = useTestEnvironment();

let identity: FakeIdentity;
let clients: FakeClients;
let oauth: RunningOAuth;
let flow: CodeFlow;
let test: ReturnType<typeof openTestRegistry>;
let redis: Redis;
let alice: FakeUser;
let web: FakeClient;

beforeAll(async () => {
  identity = new FakeIdentity();
  alice = identity.addUser('alice@example.com', 'pw');
  clients = new FakeClients();
  web = clients.addClient({
    method: 'client_secret_basic',
    secret: 's',
    grantTypes: ['authorization_code', 'refresh_token'],
    scopes: ['openid'],
    redirectUris: ['https://app.example/cb'],
  });
  const source = oauthTestSource(environment, await identity.start(), await clients.start());
  oauth = await startOAuth(source);
  flow = new CodeFlow(oauth, identity);
  test = openTestRegistry(source, oauth.app.keys);
  redis = new Redis(environment.redisUrl);
});

afterAll(async () => {
  redis?.disconnect();
  await test?.close();
  await oauth?.close();
  await identity?.close();
  await clients?.close();
});

function tokenRequest(code: string, verifier: string) {
  return new TokenParameters(
    new Map([
      ['code', [code]],
      ['redirect_uri', ['https://app.example/cb']],
      ['code_verifier', [verifier]],
    ]),
  );
}

/** The registry with a second redemption's reuse mark slipped in just before the record. */
function withReuseBeforeRecord(registry: Registry): Registry {
  const store = registry.authorizationCodes;
  const interleaved: AuthorizationCodeStore = {
    save: (code) => store.save(code),
    saveRedeemed: (code, issued, now) => store.saveRedeemed(code, issued, now),
    findByHash: (hash) => store.findByHash(hash),
    redeem: (id, now) => store.redeem(id, now),
    markReused: (id, now) => store.markReused(id, now),
    liveAccessTokensOfConsent: (id, now) => store.liveAccessTokensOfConsent(id, now),
    liveAccessTokensOfSession: (id, now) => store.liveAccessTokensOfSession(id, now),
    clientsOfSession: (id) => store.clientsOfSession(id),
    async recordIssued(id, issued) {
      expect(await store.markReused(id, new Date())).toBeUndefined();
      return store.recordIssued(id, issued);
    },
  };
  return { ...registry, authorizationCodes: interleaved };
}

describe('authorization_code grant: reuse before the first redemption recorded its tokens', () => {
  it('makes the first redemption revoke what it just issued and refuse', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice, { scope: 'openid' });
    const client = await test.registry.clients.resolveClient(web.clientId);
    const error = await handle(withReuseBeforeRecord(test.registry), {
      client,
      parameters: tokenRequest(code, verifier),
      origin,
    }).then(
      () => expect.fail('expected a refusal'),
      (refused: unknown) => refused,
    );
    expect(error).toBeInstanceOf(InvalidGrantError);

    const [row] = await test.prisma.authorizationCode.findMany({ where: { clientId: web.clientId } });
    expect(row?.reusedAt).toBeInstanceOf(Date);
    expect(row?.refreshFamilyId).toEqual(expect.any(String));
    const family = await test.prisma.refreshTokenFamily.findUnique({ where: { id: row!.refreshFamilyId! } });
    expect(family?.revokedAt).toBeInstanceOf(Date);
    expect(await redis.exists(`${environment.redisPrefix}oauth:denied-jti:${row!.accessTokenJti}`)).toBe(1);
  });
});
