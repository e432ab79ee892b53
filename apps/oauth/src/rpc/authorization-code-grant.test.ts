import { keyedHash } from '@authz/shared/crypto';
import {
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  InvalidTargetError,
  UnauthorizedError,
  type AppError,
} from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeFlow, ISSUER } from '../../test/code-flow.js';
import { FakeClients, type FakeClient } from '../../test/fake-clients.js';
import { FakeIdentity, type FakeUser } from '@authz/shared/testing/fake-identity';
import { oauthTestSource, startOAuth, type RunningOAuth } from '../../test/oauth-harness.js';
import { form, origin } from '../../test/token-management.js';

// RFC 6749 4.1.3, RFC 7636 4.6, RFC 8707 and OIDC Core 3.1.3 (docs/authorization.md #11-#14).
const environment = useTestEnvironment();

let identity: FakeIdentity;
let clients: FakeClients;
let oauth: RunningOAuth;
let flow: CodeFlow;
let source: NodeJS.ProcessEnv;
let alice: FakeUser;
let web: FakeClient;
let other: FakeClient;
let single: FakeClient;
let noRefresh: FakeClient;
let api: FakeClient;

beforeAll(async () => {
  identity = new FakeIdentity();
  alice = identity.addUser('alice@example.com', 'pw');
  clients = new FakeClients();
  const confidential = {
    method: 'client_secret_basic' as const,
    secret: 's',
    grantTypes: ['authorization_code', 'refresh_token'],
    scopes: ['openid', 'email', 'profile'],
    redirectUris: ['https://app.example/cb', 'https://app.example/second'],
  };
  web = clients.addClient({ ...confidential });
  other = clients.addClient({ ...confidential, secret: 'other' });
  single = clients.addClient({ ...confidential, redirectUris: ['https://single.example/cb'] });
  noRefresh = clients.addClient({ ...confidential, grantTypes: ['authorization_code'] });
  api = clients.addClient({ ...confidential, audience: ['https://api.example', 'https://files.example'] });
  source = oauthTestSource(environment, await identity.start(), await clients.start());
  oauth = await startOAuth(source);
  flow = new CodeFlow(oauth, identity);
});

afterAll(async () => {
  await oauth?.close();
  await identity?.close();
  await clients?.close();
});

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  return promise.then(
    () => expect.fail('expected a refusal'),
    (error: AppError) => error,
  );
}

const verify = (accessToken: string) =>
  oauth.tokens.verifyAccessToken({ accessToken, requireFirstPartyUser: false });

function refresh(client: FakeClient, refreshToken: string, extra: [string, string][] = []) {
  const parameters = [['grant_type', 'refresh_token'], ['refresh_token', refreshToken], ...extra].map(
    ([name, value]) => ({ name: name!, value: value! }),
  );
  return oauth.tokens
    .token({ parameters, basic: { clientId: client.clientId, clientSecret: client.secret! }, origin })
    .then((response) => response.tokens!);
}

async function withDatabase<T>(use: (db: Client) => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: environment.databaseUrl });
  await db.connect();
  try {
    return await use(db);
  } finally {
    await db.end();
  }
}

describe('authorization_code grant: tokens', () => {
  it('issues an access token, a refresh token and an ID token', async () => {
    const { code, verifier, session } = await flow.obtainCode(web, alice);
    const tokens = await flow.redeem(web, code, verifier);
    expect(tokens).toMatchObject({ expiresIn: 900, tokenType: 'Bearer', scope: 'openid email' });
    expect(tokens.refreshToken).toMatch(/^[0-9a-f]{64}$/);

    const { payload } = await oauth.verifyWithJwks(tokens.accessToken);
    expect(payload).toMatchObject({
      iss: ISSUER,
      sub: alice.id,
      aud: web.clientId,
      client_id: web.clientId,
      scope: 'openid email',
      email: alice.email,
      email_verified: false,
      sid: session.sessionId,
    });

    const { payload: idToken, protectedHeader } = await oauth.verifyWithJwks(tokens.idToken!);
    expect(protectedHeader).toEqual({ alg: 'EdDSA', typ: 'JWT', kid: expect.any(String) });
    expect(Object.keys(idToken).sort()).toEqual(
      // acr always; amr only when the session's methods are known (docs/strong-authentication.md #5).
      [
        'acr',
        'aud',
        'auth_time',
        'email',
        'email_verified',
        'exp',
        'iat',
        'iss',
        'nonce',
        'sid',
        'sub',
      ].sort(),
    );
    expect(idToken).toMatchObject({
      iss: ISSUER,
      sub: alice.id,
      aud: web.clientId,
      auth_time: session.authTime,
      sid: session.sessionId,
      nonce: 'n-456',
      email: alice.email,
      email_verified: false,
    });
    expect(idToken.exp! - idToken.iat!).toBe(900);
  });

  it('gives the ID token name whatever the scope, email only under the email scope, nonce only when sent', async () => {
    alice.name = 'Alice Liddell';
    try {
      const { code, verifier } = await flow.obtainCode(web, alice, { scope: 'openid', nonce: undefined });
      const { idToken, scope } = await flow.redeem(web, code, verifier);
      expect(scope).toBe('openid');
      const claims = decodeJwt(idToken!);
      expect(claims.name).toBe('Alice Liddell');
      expect(claims).not.toHaveProperty('email');
      expect(claims).not.toHaveProperty('email_verified');
      expect(claims).not.toHaveProperty('nonce');
    } finally {
      delete alice.name;
    }
  });

  it('issues no ID token without openid, and no refresh token without the refresh_token grant', async () => {
    const withoutOpenid = await flow.obtainCode(web, alice, { scope: 'email' });
    const tokens = await flow.redeem(web, withoutOpenid.code, withoutOpenid.verifier);
    expect(tokens.idToken).toBeUndefined();
    expect(tokens.refreshToken).toMatch(/^[0-9a-f]{64}$/);

    const withoutRefresh = await flow.obtainCode(noRefresh, alice);
    const limited = await flow.redeem(noRefresh, withoutRefresh.code, withoutRefresh.verifier);
    expect(limited.refreshToken).toBeUndefined();
    expect(limited.idToken).toEqual(expect.any(String));

    const withoutScope = await flow.obtainCode(web, alice, { scope: undefined });
    const bare = await flow.redeem(web, withoutScope.code, withoutScope.verifier);
    expect(bare.scope).toBeUndefined();
    expect(bare.idToken).toBeUndefined();
    expect((await oauth.verifyWithJwks(bare.accessToken)).payload.scope).toBeUndefined();
  });

  it('stores codes only as keyed hashes, with their binding', async () => {
    const { code } = await flow.obtainCode(web, alice, { resource: undefined });
    const rows = await withDatabase(
      async (db) => (await db.query('SELECT * FROM oauth.authorization_codes')).rows,
    );
    expect(JSON.stringify(rows)).not.toContain(code);
    const key = Buffer.from(source.SECRET_HASH_KEY!, 'hex');
    const row = rows.find((candidate) => candidate.code_hash === keyedHash(key, code));
    expect(row).toMatchObject({
      client_id: web.clientId,
      user_id: alice.id,
      redirect_uri: 'https://app.example/cb',
      scope: 'openid email',
      nonce: 'n-456',
      redeemed_at: null,
    });
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBeGreaterThan(59_000);
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBeLessThanOrEqual(60_000);
  });
});

describe('authorization_code grant: a public native client (RFC 8252)', () => {
  it('redeems with PKCE alone, at the loopback port it chose', async () => {
    const native = clients.addClient({
      method: 'none',
      grantTypes: ['authorization_code'],
      scopes: ['openid'],
      redirectUris: ['http://127.0.0.1/callback'],
    });
    const redirectUri = 'http://127.0.0.1:49152/callback';
    const { code, verifier, redirect } = await flow.obtainCode(native, alice, {
      scope: 'openid',
      redirect_uri: redirectUri,
    });
    expect(`${redirect.origin}${redirect.pathname}`).toBe(redirectUri);
    const redeem = (uri: string) =>
      oauth.tokens
        .token({
          parameters: form([
            ['grant_type', 'authorization_code'],
            ['client_id', native.clientId],
            ['code', code],
            ['redirect_uri', uri],
            ['code_verifier', verifier],
          ]),
          origin,
        })
        .then((response) => response.tokens!);
    // The token request repeats the exact string, port included.
    expect(await refusal(redeem('http://127.0.0.1/callback'))).toBeInstanceOf(InvalidGrantError);
    const tokens = await redeem(redirectUri);
    expect(tokens.refreshToken).toBeUndefined();
    expect(decodeJwt(tokens.idToken!).aud).toBe(native.clientId);
  });
});

describe('authorization_code grant: refusals', () => {
  it('requires code and refuses unknown or malformed ones', async () => {
    const missing = await refusal(flow.redeem(web, 'x', 'v'.repeat(43), { code: undefined }));
    expect(missing).toBeInstanceOf(InvalidRequestError);
    for (const code of ['A'.repeat(43), 'not a code', 'A'.repeat(44)]) {
      expect(await refusal(flow.redeem(web, code, 'v'.repeat(43)))).toBeInstanceOf(InvalidGrantError);
    }
  });

  it('refuses PKCE failures without consuming the code', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    for (const wrong of [
      undefined,
      'v'.repeat(43),
      verifier.slice(0, 42),
      `${verifier.slice(0, 42)}+`,
      'v'.repeat(129),
    ]) {
      const error = await refusal(flow.redeem(web, code, verifier, { code_verifier: wrong }));
      expect(error, String(wrong)).toBeInstanceOf(InvalidGrantError);
    }
    expect((await flow.redeem(web, code, verifier)).accessToken).toEqual(expect.any(String));
  });

  it("refuses another client's code without consuming it", async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    expect(await refusal(flow.redeem(other, code, verifier))).toBeInstanceOf(InvalidGrantError);
    expect((await flow.redeem(web, code, verifier)).accessToken).toEqual(expect.any(String));
  });

  it('requires the redirect_uri of the authorization request when it carried one', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    for (const redirectUri of [undefined, 'https://app.example/second', 'https://app.example/cb/']) {
      const error = await refusal(flow.redeem(web, code, verifier, { redirect_uri: redirectUri }));
      expect(error).toBeInstanceOf(InvalidGrantError);
      expect(error.message).toBe('redirect_uri does not match the authorization request');
    }
    expect((await flow.redeem(web, code, verifier)).accessToken).toEqual(expect.any(String));
  });

  it('accepts an omitted redirect_uri when the authorization request omitted it too', async () => {
    const first = await flow.obtainCode(single, alice, { redirect_uri: undefined });
    expect(first.redirect.origin).toBe('https://single.example');
    expect(
      await refusal(
        flow.redeem(single, first.code, first.verifier, { redirect_uri: 'https://x.example/cb' }),
      ),
    ).toBeInstanceOf(InvalidGrantError);
    await flow.redeem(single, first.code, first.verifier, { redirect_uri: undefined });
    const second = await flow.obtainCode(single, alice, { redirect_uri: undefined });
    await flow.redeem(single, second.code, second.verifier);
  });

  it('refuses an expired code', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    const key = Buffer.from(source.SECRET_HASH_KEY!, 'hex');
    await withDatabase((db) =>
      db.query(
        `UPDATE oauth.authorization_codes SET expires_at = now() - interval '1 second' WHERE code_hash = $1`,
        [keyedHash(key, code)],
      ),
    );
    expect(await refusal(flow.redeem(web, code, verifier))).toBeInstanceOf(InvalidGrantError);
  });
});

describe('authorization_code grant: resource indicators (RFC 8707)', () => {
  it('binds aud to the authorized resources, which the token request may narrow only', async () => {
    const fields = { scope: 'openid', resource: 'https://api.example' };
    const first = await flow.obtainCode(api, alice, fields);
    const tokens = await flow.redeem(api, first.code, first.verifier);
    expect((await oauth.verifyWithJwks(tokens.accessToken)).payload.aud).toBe('https://api.example');

    const second = await flow.obtainCode(api, alice, fields);
    const error = await refusal(
      flow.redeem(api, second.code, second.verifier, {}, [['resource', 'https://files.example']]),
    );
    expect(error).toBeInstanceOf(InvalidTargetError);
    expect(error.message).toBe('The resource was not part of the authorization');
    const narrowed = await flow.redeem(api, second.code, second.verifier, {}, [
      ['resource', 'https://api.example'],
    ]);
    expect((await oauth.verifyWithJwks(narrowed.accessToken)).payload.aud).toBe('https://api.example');

    const third = await flow.obtainCode(api, alice, { scope: 'openid', resource: undefined });
    const audience = await flow.redeem(api, third.code, third.verifier);
    expect((await oauth.verifyWithJwks(audience.accessToken)).payload.aud).toEqual([
      'https://api.example',
      'https://files.example',
    ]);
  });
});

describe('refresh_token grant: resources stay bound (RFC 8707 2.2)', () => {
  it('keeps the authorized resources as aud and refuses others', async () => {
    const { code, verifier } = await flow.obtainCode(api, alice, {
      scope: 'openid',
      resource: 'https://api.example',
    });
    const first = await flow.redeem(api, code, verifier);
    const second = await refresh(api, first.refreshToken!);
    expect((await oauth.verifyWithJwks(second.accessToken)).payload.aud).toBe('https://api.example');
    const outside = await refusal(
      refresh(api, second.refreshToken!, [['resource', 'https://files.example']]),
    );
    expect(outside).toBeInstanceOf(InvalidTargetError);
    const named = await refresh(api, second.refreshToken!, [['resource', 'https://api.example']]);
    expect((await oauth.verifyWithJwks(named.accessToken)).payload.aud).toBe('https://api.example');
  });
});

describe('authorization_code grant: a code used twice', () => {
  it('is refused and revokes what the first redemption issued', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    const tokens = await flow.redeem(web, code, verifier);
    expect(await refusal(flow.redeem(web, code, verifier))).toBeInstanceOf(InvalidGrantError);
    expect(await refusal(verify(tokens.accessToken))).toBeInstanceOf(UnauthorizedError);
    expect(await refusal(refresh(web, tokens.refreshToken!))).toBeInstanceOf(InvalidGrantError);
  });

  it('revokes even when redeemed concurrently: one answer, and then nothing stays usable', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    const outcomes = await Promise.allSettled([
      flow.redeem(web, code, verifier),
      flow.redeem(web, code, verifier),
    ]);
    const rejected = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(rejected.length).toBeGreaterThanOrEqual(1);
    for (const { reason } of rejected) expect(reason).toBeInstanceOf(InvalidGrantError);
    for (const outcome of outcomes) {
      if (outcome.status !== 'fulfilled') continue;
      expect(await refusal(verify(outcome.value.accessToken))).toBeInstanceOf(UnauthorizedError);
      expect(await refusal(refresh(web, outcome.value.refreshToken!))).toBeInstanceOf(InvalidGrantError);
    }
  });
});

describe('refresh_token grant for third-party clients (docs/decisions.md #7)', () => {
  it('rotates, narrows, refuses widening, never returns an ID token, and treats reuse as theft', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    const first = await flow.redeem(web, code, verifier);
    const second = await refresh(web, first.refreshToken!, [['scope', 'openid']]);
    expect(second).toMatchObject({ scope: 'openid', tokenType: 'Bearer' });
    expect(second.idToken).toBeUndefined();
    const { payload } = await oauth.verifyWithJwks(second.accessToken);
    expect(payload).toMatchObject({
      sub: alice.id,
      client_id: web.clientId,
      aud: web.clientId,
      scope: 'openid',
    });
    expect(payload.sid).toBe((await oauth.verifyWithJwks(first.accessToken)).payload.sid);

    const widened = await refusal(refresh(web, second.refreshToken!, [['scope', 'openid profile']]));
    expect(widened).toBeInstanceOf(InvalidScopeError);
    const third = await refresh(web, second.refreshToken!);
    expect(third.scope).toBe('openid email');
    expect(await refusal(refresh(other, third.refreshToken!))).toBeInstanceOf(InvalidGrantError);

    expect(await refusal(refresh(web, second.refreshToken!))).toBeInstanceOf(InvalidGrantError);
    expect(await refusal(refresh(web, third.refreshToken!))).toBeInstanceOf(InvalidGrantError);
    expect(await refusal(verify(third.accessToken))).toBeInstanceOf(UnauthorizedError);
  });

  it('lets exactly one of two concurrent refreshes through', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    const { refreshToken } = await flow.redeem(web, code, verifier);
    const outcomes = await Promise.allSettled([refresh(web, refreshToken!), refresh(web, refreshToken!)]);
    expect(outcomes.filter(({ status }) => status === 'fulfilled')).toHaveLength(1);
  });
});

describe('ID token header', () => {
  it('names the signing key published in the JWKS', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    const { idToken } = await flow.redeem(web, code, verifier);
    const { jwksJson } = await oauth.keys.getJwks({});
    const kids = (JSON.parse(jwksJson) as { keys: { kid: string }[] }).keys.map(({ kid }) => kid);
    expect(kids).toContain(decodeProtectedHeader(idToken!).kid);
  });
});
