import { keyedHash } from '@authz/shared/crypto';
import {
  InvalidClientError,
  InvalidCredentialsError,
  InvalidGrantError,
  InvalidRequestError,
  InvalidScopeError,
  UnauthorizedError,
  UnsupportedGrantTypeError,
  type AppError,
} from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { decodeProtectedHeader } from 'jose';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClients } from '../../test/fake-clients.js';
import { FakeIdentity, type FakeUser } from '@authz/shared/testing/fake-identity';
import { oauthTestSource, startOAuth, type RunningOAuth } from '../../test/oauth-harness.js';

const environment = useTestEnvironment();
const FIRST_PARTY = 'authz-first-party';
const origin = { ip: '203.0.113.7', userAgent: 'vitest' };

let identity: FakeIdentity;
let clients: FakeClients;
let oauth: RunningOAuth;
let alice: FakeUser;
let source: NodeJS.ProcessEnv;

beforeAll(async () => {
  identity = new FakeIdentity();
  alice = identity.addUser('alice@example.com', 'correct horse battery');
  clients = new FakeClients();
  source = oauthTestSource(environment, await identity.start(), await clients.start());
  oauth = await startOAuth(source);
});

afterAll(async () => {
  await oauth?.close();
  await identity?.close();
  await clients?.close();
});

const login = () =>
  oauth.tokens
    .loginFirstParty({ email: alice.email, password: alice.password, origin })
    .then((r) => r.tokens!);

function refresh(refreshToken: string, extra: [string, string][] = []) {
  const parameters = [
    ['grant_type', 'refresh_token'],
    ['client_id', FIRST_PARTY],
    ['refresh_token', refreshToken],
    ...extra,
  ].map(([name, value]) => ({ name: name!, value: value! }));
  return oauth.tokens.token({ parameters, origin }).then((r) => r.tokens!);
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  return promise.then(
    () => expect.fail('expected a refusal'),
    (error: AppError) => error,
  );
}

describe('LoginFirstParty', () => {
  it('mints an RFC 9068 access token for the first-party client and a refresh token', async () => {
    const tokens = await login();
    expect(tokens).toMatchObject({ expiresIn: 900, tokenType: 'Bearer' });
    expect(tokens.refreshToken).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens.scope).toBeUndefined();
    expect(tokens.idToken).toBeUndefined();

    const { payload, protectedHeader } = await oauth.verifyWithJwks(tokens.accessToken);
    expect(protectedHeader).toEqual({ alg: 'EdDSA', typ: 'at+jwt', kid: expect.any(String) });
    expect(Object.keys(payload).sort()).toEqual(
      // RFC 9068 section 2.2.1 acr and auth_time (docs/strong-authentication.md #13).
      [
        'acr',
        'aud',
        'auth_time',
        'client_id',
        'email',
        'email_verified',
        'exp',
        'iat',
        'iss',
        'jti',
        'sid',
        'sub',
      ].sort(),
    );
    expect(payload).toMatchObject({
      iss: 'http://localhost:3000',
      aud: FIRST_PARTY,
      client_id: FIRST_PARTY,
      sub: alice.id,
      email: alice.email,
      email_verified: false,
    });
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(payload.sid).toEqual(expect.any(String));
    expect(payload.exp! - payload.iat!).toBe(900);
  });

  it('passes identity refusals through as the same class', async () => {
    const error = await refusal(
      oauth.tokens.loginFirstParty({ email: alice.email, password: 'wrong', origin }),
    );
    expect(error).toBeInstanceOf(InvalidCredentialsError);
  });

  it('stores refresh tokens only as keyed hashes', async () => {
    const { refreshToken } = await login();
    const db = new Client({ connectionString: environment.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT token_hash FROM oauth.refresh_tokens');
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain(refreshToken);
      const key = Buffer.from(source.SECRET_HASH_KEY!, 'hex');
      expect(rows.map((row) => row.token_hash)).toContain(keyedHash(key, refreshToken!));
    } finally {
      await db.end();
    }
  });
});

describe('Token: refresh_token grant', () => {
  it('rotates, with fresh claims, no ID token and no scope', async () => {
    const first = await login();
    alice.emailVerified = true;
    await oauth.announceUserChange(alice.id);
    try {
      const second = await refresh(first.refreshToken!);
      expect(second.refreshToken).toMatch(/^[0-9a-f]{64}$/);
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect(second).toMatchObject({ expiresIn: 900, tokenType: 'Bearer' });
      expect(second.idToken).toBeUndefined();
      expect(second.scope).toBeUndefined();
      const { payload } = await oauth.verifyWithJwks(second.accessToken);
      const { payload: before } = await oauth.verifyWithJwks(first.accessToken);
      expect(payload).toMatchObject({
        sub: alice.id,
        email_verified: true,
        sid: before.sid,
        aud: FIRST_PARTY,
      });
      expect(payload.scope).toBeUndefined();
      expect(payload.jti).not.toBe(before.jti);
      const third = await refresh(second.refreshToken!);
      expect(third.refreshToken).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      alice.emailVerified = false;
      await oauth.announceUserChange(alice.id);
    }
  });

  it('treats a rotated token presented again as reuse and revokes the family', async () => {
    const first = await login();
    const second = await refresh(first.refreshToken!);
    expect(await refusal(refresh(first.refreshToken!))).toBeInstanceOf(InvalidGrantError);
    // RFC 9700 4.14.2: the newest token of the family is dead too, and its access token denied.
    expect(await refusal(refresh(second.refreshToken!))).toBeInstanceOf(InvalidGrantError);
    const verify = oauth.tokens.verifyAccessToken({
      accessToken: second.accessToken,
      requireFirstPartyUser: true,
    });
    expect(await refusal(verify)).toBeInstanceOf(UnauthorizedError);
  });

  it('lets exactly one of two concurrent refreshes of one token succeed', async () => {
    const { refreshToken } = await login();
    const outcomes = await Promise.allSettled([refresh(refreshToken!), refresh(refreshToken!)]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const [failed] = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(failed?.reason).toBeInstanceOf(InvalidGrantError);
  });

  it('refuses unknown, malformed and missing refresh tokens', async () => {
    expect(await refusal(refresh('a'.repeat(64)))).toBeInstanceOf(InvalidGrantError);
    expect(await refusal(refresh('not-a-token'))).toBeInstanceOf(InvalidGrantError);
    const missing = await refusal(refresh(''));
    expect(missing).toBeInstanceOf(InvalidRequestError);
  });

  it('never widens scope: a family without scope refuses any requested scope', async () => {
    const { refreshToken } = await login();
    const error = await refusal(refresh(refreshToken!, [['scope', 'openid']]));
    expect(error).toBeInstanceOf(InvalidScopeError);
    expect(error.code).toBe('INVALID_SCOPE');
    // The refusal did not consume the token.
    expect((await refresh(refreshToken!)).refreshToken).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses duplicated parameters (RFC 6749 3.2)', async () => {
    const { refreshToken } = await login();
    const error = await refusal(refresh(refreshToken!, [['refresh_token', refreshToken!]]));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.statusCode).toBe(400);
  });
});

describe('Token: endpoint checks', () => {
  it('answers invalid_request without a grant_type', async () => {
    const parameters = [
      { name: 'grant_type', value: '' },
      { name: 'client_id', value: FIRST_PARTY },
    ];
    const error = await refusal(oauth.tokens.token({ parameters, origin }));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({
      code: 'INVALID_REQUEST',
      statusCode: 400,
      description: 'grant_type is required',
    });
  });

  it('answers unsupported_grant_type for other grant types', async () => {
    for (const grantType of ['password', 'implicit']) {
      const parameters = [
        { name: 'grant_type', value: grantType },
        { name: 'client_id', value: FIRST_PARTY },
      ];
      const error = await refusal(oauth.tokens.token({ parameters, origin }));
      expect(error).toBeInstanceOf(UnsupportedGrantTypeError);
      expect(error).toMatchObject({ code: 'UNSUPPORTED_GRANT_TYPE', statusCode: 400 });
    }
  });

  it('answers a bare invalid_client for another client, a mismatch, a secret or an assertion', async () => {
    const { refreshToken } = await login();
    const parameters = (clientId: string) => [
      { name: 'grant_type', value: 'refresh_token' },
      { name: 'client_id', value: clientId },
      { name: 'refresh_token', value: refreshToken! },
    ];
    const attempts = [
      () => oauth.tokens.token({ parameters: parameters('someone-else'), origin }),
      () => oauth.tokens.token({ parameters: parameters(''), origin }),
      () =>
        oauth.tokens.token({
          parameters: parameters(FIRST_PARTY),
          basic: { clientId: 'x', clientSecret: 'y' },
          origin,
        }),
      () =>
        oauth.tokens.token({
          parameters: parameters(''),
          basic: { clientId: 'x', clientSecret: 'y' },
          origin,
        }),
      () =>
        oauth.tokens.token({
          parameters: parameters(FIRST_PARTY),
          basic: { clientId: FIRST_PARTY, clientSecret: 'secret' },
          origin,
        }),
      () =>
        oauth.tokens.token({
          parameters: [
            ...parameters(FIRST_PARTY),
            {
              name: 'client_assertion_type',
              value: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
            },
            { name: 'client_assertion', value: 'e30.e30.sig' },
          ],
          origin,
        }),
    ];
    for (const attempt of attempts) {
      const error = await refusal(attempt());
      expect(error).toBeInstanceOf(InvalidClientError);
      expect(error).toMatchObject({ code: 'INVALID_CLIENT', statusCode: 401, hasCustomMessage: false });
    }
    // None of them consumed the token.
    expect((await refresh(refreshToken!)).refreshToken).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('VerifyAccessToken and Logout', () => {
  it('returns the claims of a valid token', async () => {
    const { accessToken } = await login();
    const claims = await oauth.tokens.verifyAccessToken({ accessToken, requireFirstPartyUser: true });
    const { payload } = await oauth.verifyWithJwks(accessToken);
    expect(claims).toMatchObject({
      sub: alice.id,
      clientId: FIRST_PARTY,
      scope: '',
      jti: payload.jti,
      exp: BigInt(payload.exp!),
      sid: payload.sid,
      email: alice.email,
      hasAct: false,
    });
  });

  it('refuses tampered, foreign-typed and garbage tokens alike', async () => {
    const { accessToken } = await login();
    const [header, payload, signature] = accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'mallory' })).toString('base64url')}.${signature}`;
    const idTyped = `${Buffer.from(JSON.stringify({ ...decodeProtectedHeader(accessToken), typ: 'JWT' })).toString('base64url')}.${payload}.${signature}`;
    for (const token of [forged, idTyped, 'garbage', '']) {
      const error = await refusal(
        oauth.tokens.verifyAccessToken({ accessToken: token, requireFirstPartyUser: false }),
      );
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(error.message).toBe('Unauthorized');
    }
  });

  it('denies the jti, revokes the session family and ends the session', async () => {
    const tokens = await login();
    const { payload } = await oauth.verifyWithJwks(tokens.accessToken);
    await oauth.tokens.logout({ accessToken: tokens.accessToken, origin });
    expect(identity.endedSessions).toContainEqual({ sessionId: payload.sid, userId: alice.id });

    const verify = oauth.tokens.verifyAccessToken({
      accessToken: tokens.accessToken,
      requireFirstPartyUser: false,
    });
    expect(await refusal(verify)).toBeInstanceOf(UnauthorizedError);
    expect(await refusal(oauth.tokens.logout({ accessToken: tokens.accessToken, origin }))).toBeInstanceOf(
      UnauthorizedError,
    );
    expect(await refusal(refresh(tokens.refreshToken!))).toBeInstanceOf(InvalidGrantError);
  });

  it('keeps the deny-list under REDIS_KEY_PREFIX with the remaining lifetime as TTL', async () => {
    const { Redis } = await import('ioredis');
    const tokens = await login();
    const { payload } = await oauth.verifyWithJwks(tokens.accessToken);
    await oauth.tokens.logout({ accessToken: tokens.accessToken, origin });
    const redis = new Redis(environment.redisUrl);
    try {
      const ttl = await redis.ttl(`${environment.redisPrefix}oauth:denied-jti:${payload.jti}`);
      expect(ttl).toBeGreaterThan(890);
      expect(ttl).toBeLessThanOrEqual(900);
    } finally {
      redis.disconnect();
    }
  });
});
