import { describe, expect, it } from 'vitest';
import {
  authorizedTokens,
  completeAuthorization,
  newAppClient,
  newUser,
  redeemCode,
  refresh,
  useCodeFlow,
  type AppClient,
  type CodeFlowContext,
  type TestUser,
} from '../support/code-flow.js';
import { call } from '../support/clients.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import { INACTIVE } from '../support/token-management.js';
import { requestToken } from '../support/tokens.js';
import { claimsOf, exchange, introspectAs, registerAgent } from '../support/exchange-helpers.js';

// Exchanged tokens die with what their subject token belonged to (docs/tokens.md #30,
// docs/security.md #12 finding 7): the session at logout (interface.md 4.2), the consent at
// DELETE /consents/{id} (interface.md 4.6), the refresh family at reuse; chains of exchanges
// included.
const SCOPES = 'openid profile email offline_access calendar:read calendar:write';
const flow: CodeFlowContext = useCodeFlow(
  {},
  { DEFAULT_REALM_ALLOWED_SCOPES: SCOPES, DEFAULT_DYNAMIC_REGISTRATION_SCOPES: SCOPES },
);

const userInfoStatus = async (token: string): Promise<number> =>
  (await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } }))
    .status;

/** An agent that may pass openid on, so its tokens can be tried at UserInfo. */
const newAgent = () => registerAgent(flow.suite, { scope: 'openid email calendar:read' });

/** The token `agent` gets for `subject`, checked to be live. */
async function exchanged(agent: AppClient, subject: string, scope?: string): Promise<string> {
  const response = await exchange(flow.suite, agent, subject, scope ? [['scope', scope]] : []);
  expect(response.status).toBe(200);
  const token = response.body.access_token as string;
  expect(await introspectAs(flow.suite, agent, token)).toMatchObject({ active: true });
  return token;
}

/** interface.md 4.2 sign-in: a first-party access token of a new session, and its refresh token. */
async function signIn(user: TestUser): Promise<{ accessToken: string; refreshToken: string }> {
  const response = await call<{ access_token: string; refresh_token: string }>(
    flow.suite,
    'POST',
    '/auth/login',
    {
      body: { email: user.email, password: user.password },
    },
  );
  expect(response.status).toBe(200);
  return { accessToken: response.body.access_token, refreshToken: response.body.refresh_token };
}

/** The browser's one consent, revoked through the cookie-authenticated API (interface.md 4.6). */
async function revokeOnlyConsent(browser: FormBrowser): Promise<void> {
  const list = await browser.get(`${flow.suite.baseUrl}/consents/`);
  const { consents, csrfToken } = JSON.parse(list.text) as { consents: { id: string }[]; csrfToken: string };
  expect(consents).toHaveLength(1);
  const revoked = await browser.request('DELETE', `${flow.suite.baseUrl}/consents/${consents[0]!.id}`, {
    headers: { 'x-csrf-token': csrfToken },
  });
  expect(revoked.status).toBe(204);
}

describe('exchanged tokens end with the session at logout (interface.md 4.2)', () => {
  it("an agent's token from a first-party token, and a token exchanged from that one, are inactive", async () => {
    const user = await newUser(flow);
    const agent = await newAgent();
    const second = await newAgent();
    const session = await signIn(user);
    const delegated = await exchanged(agent, session.accessToken);
    const chained = await exchanged(second, delegated);
    expect(claimsOf(chained).act).toEqual({ sub: second.clientId, act: { sub: agent.clientId } });
    // Another session of the same user is not touched by this logout.
    const elsewhere = await exchanged(agent, (await signIn(user)).accessToken);

    const logout = await call(flow.suite, 'POST', '/auth/logout', { token: session.accessToken });
    expect(logout.status).toBe(200);

    expect(await introspectAs(flow.suite, agent, delegated)).toEqual(INACTIVE);
    expect(await introspectAs(flow.suite, second, chained)).toEqual(INACTIVE);
    expect(await introspectAs(flow.suite, agent, elsewhere)).toMatchObject({ active: true });
    // A dead token can no longer be exchanged either.
    const again = await exchange(flow.suite, second, delegated);
    expect(again.body.error).toBe('invalid_request');
  });

  it('a token exchanged from a refreshed first-party token is inactive too', async () => {
    const user = await newUser(flow);
    const agent = await newAgent();
    const session = await signIn(user);
    const refreshed = await requestToken(flow.suite, [
      ['grant_type', 'refresh_token'],
      ['refresh_token', session.refreshToken],
      ['client_id', 'authz-first-party'],
    ]);
    expect(refreshed.status).toBe(200);
    const delegated = await exchanged(agent, refreshed.body.access_token as string);

    expect((await call(flow.suite, 'POST', '/auth/logout', { token: session.accessToken })).status).toBe(200);
    expect(await introspectAs(flow.suite, agent, delegated)).toEqual(INACTIVE);
  });
});

describe('exchanged tokens end with the consent (DELETE /consents/{id}, interface.md 4.6)', () => {
  it.each([
    ['a client with refresh tokens (the token is in a family)', ['authorization_code', 'refresh_token']],
    ['a client without (the token is known by its code only)', ['authorization_code']],
  ])('%s: inactive at introspection, refused at UserInfo, down the chain', async (_case, grantTypes) => {
    const user = await newUser(flow);
    const web = await newAppClient(flow, { grantTypes });
    const agent = await newAgent();
    const second = await newAgent();
    const browser = new FormBrowser();
    const tokens = await authorizedTokens(flow, web, user, { scope: 'openid email' }, browser);
    const delegated = await exchanged(agent, tokens.access_token as string, 'openid email');
    const chained = await exchanged(second, delegated, 'openid');
    expect(await userInfoStatus(delegated)).toBe(200);
    expect(await userInfoStatus(chained)).toBe(200);

    await revokeOnlyConsent(browser);

    expect(await introspectAs(flow.suite, agent, delegated)).toEqual(INACTIVE);
    expect(await introspectAs(flow.suite, web, delegated)).toEqual(INACTIVE);
    expect(await introspectAs(flow.suite, second, chained)).toEqual(INACTIVE);
    expect(await userInfoStatus(delegated)).toBe(401);
    expect(await userInfoStatus(chained)).toBe(401);
  });
});

describe('exchanged tokens end with their refresh family (RFC 9700 4.14.2)', () => {
  it('a reused refresh token revokes the family and what was exchanged from it', async () => {
    const user = await newUser(flow);
    const web = await newAppClient(flow);
    const agent = await newAgent();
    const tokens = await authorizedTokens(flow, web, user, { scope: 'openid email' });
    const delegated = await exchanged(agent, tokens.access_token as string, 'openid');
    const rotated = await refresh(flow, web, tokens.refresh_token as string);
    expect(rotated.status).toBe(200);
    const fromRotated = await exchanged(agent, rotated.body.access_token as string, 'openid');

    const reused = await refresh(flow, web, tokens.refresh_token as string);
    expect(reused.status).toBe(400);

    expect(await introspectAs(flow.suite, agent, delegated)).toEqual(INACTIVE);
    expect(await introspectAs(flow.suite, agent, fromRotated)).toEqual(INACTIVE);
    expect(await userInfoStatus(fromRotated)).toBe(401);
  });
});

describe('exchanged tokens end with a reused code (RFC 6749 4.1.2)', () => {
  it("a code-only client's token, known by its code alone: what was exchanged from it is inactive", async () => {
    const user = await newUser(flow);
    const web = await newAppClient(flow, { grantTypes: ['authorization_code'] });
    const agent = await newAgent();
    const result = await completeAuthorization(flow, new FormBrowser(), user, {
      client: web,
      scope: 'openid',
    });
    const tokens = await redeemCode(flow, web, result.code!, result.verifier);
    expect(tokens.status).toBe(200);
    const delegated = await exchanged(agent, tokens.body.access_token as string, 'openid');

    expect((await redeemCode(flow, web, result.code!, result.verifier)).status).toBe(400);

    expect(await introspectAs(flow.suite, agent, delegated)).toEqual(INACTIVE);
    expect(await userInfoStatus(delegated)).toBe(401);
  });
});
