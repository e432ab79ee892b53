import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { bearerChallenge, getJson, postForm, postJson } from '../support/http.js';
import { metricValue } from '../support/metrics.js';
import { useSuite } from '../support/use-suite.js';

// interface.md 4.2 end to end: HTTP through the gateway, real gRPC services, Postgres, Redis and SMTP.
const context = useSuite({ smtp: true });
const FIRST_PARTY_CLIENT = 'authz-first-party';
const password = 'violet-Lantern-harbor-93';
const url = context.url;
let sequence = 0;
const newEmail = () => `user${Date.now()}-${(sequence += 1)}@example.com`;

async function register(email: string) {
  return postJson(url('/auth/register'), { email, password });
}

async function login(email: string, secret = password) {
  return postJson<{ access_token: string; refresh_token: string; expires_in: number; token_type: string }>(
    url('/auth/login'),
    { email, password: secret },
  );
}

async function verifyAccessToken(token: string) {
  const jwks = createRemoteJWKSet(new URL(url('/.well-known/jwks.json')));
  return jwtVerify(token, jwks, {
    issuer: context.suite.baseUrl,
    audience: FIRST_PARTY_CLIENT,
    typ: 'at+jwt',
  });
}

describe('register, verify by email, login', () => {
  it('registers, mails a working link, and the next login token says email_verified: true', async () => {
    const email = newEmail();
    const registered = await register(email);
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email,
      emailVerified: false,
      realmId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      createdAt: expect.any(Number),
      updatedAt: null,
    });

    const before = await login(email);
    expect(before.status).toBe(200);
    expect((await verifyAccessToken(before.body.access_token)).payload.email_verified).toBe(false);

    const mail = await context.smtp.waitFor((message) => message.envelopeTo.includes(email));
    // The link opens the hosted page (interface.md 4.10); GET /auth/verify stays the JSON API.
    const link = mail.links.find((candidate) => candidate.includes('/ui/verify-email?token='));
    expect(link).toMatch(new RegExp(`^${context.suite.baseUrl}/ui/verify-email\\?token=[0-9a-f]{64}$`));
    const verifyUrl = url(`/auth/verify?token=${new URL(link!).searchParams.get('token')}`);
    const verified = await getJson(verifyUrl);
    expect(verified).toMatchObject({ status: 200, body: { message: 'Email verified', email } });
    // Single use (docs/decisions.md #5).
    expect(await getJson(verifyUrl)).toMatchObject({
      status: 400,
      body: { error: 'Invalid or expired token', statusCode: 400, code: 'INVALID_TOKEN' },
    });

    const after = await login(email);
    expect(after.status).toBe(200);
    expect(after.headers.get('cache-control')).toBe('no-store');
    expect(after.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      expires_in: 900,
      token_type: 'Bearer',
    });
    const { payload, protectedHeader } = await verifyAccessToken(after.body.access_token);
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ: 'at+jwt', kid: expect.any(String) });
    expect(payload).toMatchObject({
      iss: context.suite.baseUrl,
      aud: FIRST_PARTY_CLIENT,
      sub: (registered.body as { id: string }).id,
      client_id: FIRST_PARTY_CLIENT,
      email,
      email_verified: true,
      jti: expect.any(String),
    });
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(payload.scope).toBeUndefined();
  });

  it('serves the public signing keys with the discovery cache policy', async () => {
    const response = await getJson<{ keys: Record<string, string>[] }>(url('/.well-known/jwks.json'));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(response.body.keys.length).toBeGreaterThan(0);
    // Ed25519 keys, and RSA keys for the ID tokens of RS256 clients (docs/tokens.md #34).
    for (const key of response.body.keys) {
      expect(key).toEqual(
        key.alg === 'RS256'
          ? {
              kty: 'RSA',
              n: expect.any(String),
              e: 'AQAB',
              kid: expect.any(String),
              alg: 'RS256',
              use: 'sig',
            }
          : {
              kty: 'OKP',
              crv: 'Ed25519',
              x: expect.any(String),
              kid: expect.any(String),
              alg: 'EdDSA',
              use: 'sig',
            },
      );
    }
    expect(response.body.keys.map((key) => key.alg).sort()).toEqual(['EdDSA', 'RS256']);
    const email = newEmail();
    await register(email);
    const { body } = await login(email);
    const { kid } = decodeProtectedHeader(body.access_token);
    expect(response.body.keys.map((key) => key.kid)).toContain(kid);
  });
});

describe('logout and refresh', () => {
  it('logout denies the token everywhere; the refresh family is revoked with it', async () => {
    const email = newEmail();
    await register(email);
    const { body: tokens } = await login(email);
    const bearer = { authorization: `Bearer ${tokens.access_token}` };

    const loggedOut = await postJson(url('/auth/logout'), {}, bearer);
    expect(loggedOut).toMatchObject({ status: 200, body: { success: true, message: 'Logged out' } });

    const again = await postJson(url('/auth/logout'), {}, bearer);
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ error: 'Unauthorized', statusCode: 401, code: 'UNAUTHORIZED' });
    expect(again.headers.get('www-authenticate')).toBe(bearerChallenge(context.suite.baseUrl));

    const refreshed = await postForm(url('/oauth/token'), {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: FIRST_PARTY_CLIENT,
    });
    expect(refreshed).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', statusCode: 400, code: 'INVALID_GRANT' },
    });
  });

  it('refresh rotates; reusing the old token revokes the whole family', async () => {
    const email = newEmail();
    await register(email);
    const { body: first } = await login(email);
    const refresh = (token: string) =>
      postForm<Record<string, string | number>>(url('/oauth/token'), {
        grant_type: 'refresh_token',
        refresh_token: token,
        client_id: FIRST_PARTY_CLIENT,
      });

    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect(second.headers.get('pragma')).toBe('no-cache');
    expect(second.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      expires_in: 900,
      token_type: 'Bearer',
    });
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    await verifyAccessToken(second.body.access_token as string);

    const reused = await refresh(first.refresh_token);
    expect({ status: reused.status, body: reused.body }).toEqual({
      status: 400,
      body: {
        error: 'invalid_grant',
        error_description: 'The refresh token was already used; every token of its grant has been revoked',
        code: 'INVALID_GRANT',
        statusCode: 400,
      },
    });
    const familyRevoked = await refresh(second.body.refresh_token as string);
    expect(familyRevoked).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refuses unknown grants and other clients at the token endpoint', async () => {
    expect(await postForm(url('/oauth/token'), { grant_type: 'password' })).toEqual({
      status: 400,
      headers: expect.anything(),
      body: { error: 'unsupported_grant_type', code: 'UNSUPPORTED_GRANT_TYPE', statusCode: 400 },
    });
    const wrongClient = await postForm(url('/oauth/token'), {
      grant_type: 'refresh_token',
      refresh_token: 'a'.repeat(64),
      client_id: 'someone-else',
    });
    expect(wrongClient.status).toBe(401);
    expect(wrongClient.body).toEqual({ error: 'invalid_client', code: 'INVALID_CLIENT', statusCode: 401 });
  });
});

describe('metrics (docs/decisions.md #24)', () => {
  it('counts login attempts by outcome and tokens by type and grant', async () => {
    const email = newEmail();
    await register(email);
    const { body } = await login(email);
    expect((await login(email, 'wrong-Password-12')).status).toBe(401);
    await postForm(url('/oauth/token'), {
      grant_type: 'refresh_token',
      refresh_token: body.refresh_token,
      client_id: FIRST_PARTY_CLIENT,
    });
    const text = await (await fetch(url('/metrics'))).text();
    const count = (name: string, labels: Record<string, string>) => metricValue(text, name, labels);
    expect(count('login_attempts_total', { outcome: 'success' })).toBeGreaterThanOrEqual(1);
    expect(count('login_attempts_total', { outcome: 'failure' })).toBeGreaterThanOrEqual(1);
    expect(
      count('tokens_issued_total', { type: 'access', grant: 'first_party_login' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      count('tokens_issued_total', { type: 'refresh', grant: 'first_party_login' }),
    ).toBeGreaterThanOrEqual(1);
    expect(count('tokens_issued_total', { type: 'access', grant: 'refresh_token' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(count('tokens_issued_total', { type: 'refresh', grant: 'refresh_token' })).toBeGreaterThanOrEqual(
      1,
    );
  });
});
