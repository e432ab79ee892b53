import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { INACTIVE, introspect } from '../support/token-management.js';
import { verifyAtJwks } from '../support/tokens.js';
import { metricValue } from '../support/metrics.js';
import {
  clientCredentials,
  completeAuthorization,
  CODE_REUSED,
  INVALID_GRANT,
  VERIFIER_MISMATCH,
  newAppClient,
  newUser,
  redeemCode,
  refresh,
  useCodeFlow,
  verifyIdToken,
  type AppClient,
  type TestUser,
} from '../support/code-flow.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';

// interface.md 4.3 and 2.5 end to end through the gateway: a browser walks authorize, the hosted
// login, resume and consent pages, and the client redeems the code (RFC 6749 4.1, RFC 7636).
const flow = useCodeFlow();

async function authorizeAndRedeem(client: AppClient, user: TestUser, scope = 'openid email') {
  const result = await completeAuthorization(flow, new FormBrowser(), user, { client, scope });
  expect(result.prompts).toEqual(['login', 'consent']);
  expect(result.query).toEqual({ code: expect.any(String), state: 'af0ifjsldkj', iss: flow.suite.baseUrl });
  return { result, tokens: await redeemCode(flow, client, result.code!, result.verifier) };
}

describe('the authorization code flow (interface.md 4.3)', () => {
  it.each([
    ['a confidential client (client_secret_basic)', 'client_secret_basic'],
    ['a public client (PKCE only)', 'none'],
  ])('%s gets an access, a refresh and an ID token', async (_name, tokenEndpointAuthMethod) => {
    const client = await newAppClient(flow, { tokenEndpointAuthMethod });
    const user = await newUser(flow);
    const { tokens } = await authorizeAndRedeem(client, user);

    expect(tokens.status).toBe(200);
    expect(tokens.headers.get('cache-control')).toBe('no-store');
    expect(tokens.body).toEqual({
      access_token: expect.any(String),
      // docs/decisions.md #7: the client holds the refresh_token grant.
      refresh_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      id_token: expect.any(String),
      expires_in: 900,
      token_type: 'Bearer',
      scope: 'openid email',
    });

    const { payload: access } = await verifyAtJwks(flow.suite, tokens.body.access_token as string);
    expect(access).toMatchObject({
      iss: flow.suite.baseUrl,
      aud: client.clientId,
      sub: user.id,
      client_id: client.clientId,
      scope: 'openid email',
      email: user.email,
      email_verified: false,
    });

    // interface.md 2.5: aud is the client, nonce echoed, email claims under the email scope.
    const idToken = await verifyIdToken(flow, client, tokens.body.id_token as string);
    expect(idToken).toEqual({
      iss: flow.suite.baseUrl,
      aud: client.clientId,
      sub: user.id,
      exp: expect.any(Number),
      iat: expect.any(Number),
      auth_time: expect.any(Number),
      // interface.md 4.3: the session's public id, as the access token's sid.
      sid: decodeJwt(tokens.body.access_token as string).sid,
      // docs/strong-authentication.md #5: a password sign-in.
      acr: 'urn:authz:acr:password',
      amr: ['pwd'],
      nonce: 'n-0S6_WzA2Mj',
      email: user.email,
      email_verified: false,
    });
    expect(idToken.sid).toMatch(/^[0-9a-f-]{36}$/);
    expect(idToken.auth_time).toBeLessThanOrEqual(idToken.iat!);
  });

  it('no ID token without openid; no email claims without the email scope', async () => {
    const client = await newAppClient(flow);
    const user = await newUser(flow);
    const withoutOpenid = await completeAuthorization(flow, new FormBrowser(), user, {
      client,
      scope: 'email',
    });
    const tokens = await redeemCode(flow, client, withoutOpenid.code!, withoutOpenid.verifier);
    expect(tokens.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 900,
      token_type: 'Bearer',
      scope: 'email',
    });

    const { tokens: openidOnly } = await authorizeAndRedeem(client, await newUser(flow), 'openid');
    const idToken = await verifyIdToken(flow, client, openidOnly.body.id_token as string);
    expect(idToken).not.toHaveProperty('email');
    expect(idToken).not.toHaveProperty('email_verified');
  });

  it('no refresh token for a client without the refresh_token grant (docs/decisions.md #7)', async () => {
    const client = await newAppClient(flow, { grantTypes: ['authorization_code'] });
    const { tokens } = await authorizeAndRedeem(client, await newUser(flow));
    expect(tokens.body).toEqual({
      access_token: expect.any(String),
      id_token: expect.any(String),
      expires_in: 900,
      token_type: 'Bearer',
      scope: 'openid email',
    });
  });

  it('counts every token of the grant in tokens_issued_total (docs/decisions.md #24)', async () => {
    const read = async () => (await fetch(`${flow.suite.baseUrl}/metrics`)).text();
    const count = (text: string, type: string) =>
      metricValue(text, 'tokens_issued_total', { type, grant: 'authorization_code' });
    const before = await read();
    const client = await newAppClient(flow);
    await authorizeAndRedeem(client, await newUser(flow));
    const after = await read();
    for (const type of ['access', 'refresh', 'id']) expect(count(after, type) - count(before, type)).toBe(1);
  });
});

// A public client cannot introspect: its access token is tried at the UserInfo endpoint instead.
async function userInfoStatus(accessToken: string): Promise<number> {
  const response = await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return response.status;
}

describe('a code is single use (RFC 6749 4.1.2, OAuth 2.1 4.1.3)', () => {
  it('a second redemption is invalid_grant and revokes what the first one issued', async () => {
    const client = await newAppClient(flow);
    const { result, tokens } = await authorizeAndRedeem(client, await newUser(flow));
    expect(tokens.status).toBe(200);

    const replay = await redeemCode(flow, client, result.code!, result.verifier);
    expect({ status: replay.status, body: replay.body }).toEqual({
      status: 400,
      body: CODE_REUSED,
    });

    const { headers } = clientCredentials(client);
    const access = await introspect(flow.suite, [['token', tokens.body.access_token as string]], headers);
    expect(access.body).toEqual(INACTIVE);
    const refreshed = await refresh(flow, client, tokens.body.refresh_token as string);
    expect({ status: refreshed.status, body: refreshed.body }).toEqual({ status: 400, body: INVALID_GRANT });
  });

  it('a reused code with a wrong verifier revokes nothing; a proven reuse revokes the family', async () => {
    // RFC 7636 section 4.6 before RFC 6749 section 4.1.2: only the holder of the verifier can
    // prove a reuse, so a leaked, redeemed code of a public client cannot revoke the user's tokens.
    const client = await newAppClient(flow, { tokenEndpointAuthMethod: 'none' });
    const { result, tokens } = await authorizeAndRedeem(client, await newUser(flow));
    expect(tokens.status).toBe(200);

    const guessed = await redeemCode(flow, client, result.code!, 'x'.repeat(43));
    expect({ status: guessed.status, body: guessed.body }).toEqual({ status: 400, body: VERIFIER_MISMATCH });
    expect(await userInfoStatus(tokens.body.access_token as string)).toBe(200);
    const refreshed = await refresh(flow, client, tokens.body.refresh_token as string);
    expect(refreshed.status).toBe(200);

    const proven = await redeemCode(flow, client, result.code!, result.verifier);
    expect({ status: proven.status, body: proven.body }).toEqual({ status: 400, body: CODE_REUSED });
    const revoked = await refresh(flow, client, refreshed.body.refresh_token as string);
    expect({ status: revoked.status, body: revoked.body }).toEqual({ status: 400, body: INVALID_GRANT });
    expect(await userInfoStatus(refreshed.body.access_token as string)).toBe(401);
  });

  it('the code is bound to the PKCE verifier and to the client', async () => {
    const client = await newAppClient(flow);
    const other = await newAppClient(flow);
    const user = await newUser(flow);
    const browser = new FormBrowser();
    const result = await completeAuthorization(flow, browser, user, { client });
    const wrongVerifier = await redeemCode(flow, client, result.code!, 'x'.repeat(43));
    expect({ status: wrongVerifier.status, body: wrongVerifier.body }).toEqual({
      status: 400,
      body: VERIFIER_MISMATCH,
    });

    const again = await completeAuthorization(flow, browser, user, { client });
    const stolen = await redeemCode(flow, other, again.code!, again.verifier);
    expect({ status: stolen.status, body: stolen.body }).toEqual({ status: 400, body: INVALID_GRANT });
  });
});
