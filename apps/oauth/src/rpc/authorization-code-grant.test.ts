import { keyedHash } from '@authz/shared/crypto';
import { InvalidGrantError, InvalidTargetError } from '@authz/shared/errors';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { ISSUER } from '../../test/code-flow.js';
import { form, origin } from '../../test/token-management.js';
import { refusal, useCodeGrant } from './test/use-code-grant.js';

// RFC 6749 4.1.3, RFC 7636 4.6, RFC 8707 and OIDC Core 3.1.3 (docs/authorization.md #11-#14): what a
// redeemed code gives. Refusals: authorization-code-refusals.test.ts; refresh: refresh-token-grant.test.ts.
const { clients, alice, web, noRefresh, api, oauth, source, flow, withDatabase } = useCodeGrant();

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
    await oauth.announceUserChange(alice.id);
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
      await oauth.announceUserChange(alice.id);
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

describe('ID token header', () => {
  it('names the signing key published in the JWKS', async () => {
    const { code, verifier } = await flow.obtainCode(web, alice);
    const { idToken } = await flow.redeem(web, code, verifier);
    const { jwksJson } = await oauth.keys.getJwks({});
    const kids = (JSON.parse(jwksJson) as { keys: { kid: string }[] }).keys.map(({ kid }) => kid);
    expect(kids).toContain(decodeProtectedHeader(idToken!).kid);
  });
});
