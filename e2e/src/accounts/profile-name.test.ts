import { describe, expect, it } from 'vitest';
import { accountCall, signIn } from '../support/accounts.js';
import { UNAUTHORIZED } from '../support/clients.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import {
  authorizationParameters,
  authorizeUrl,
  authorizedTokens,
  newAppClient,
  newPkce,
  newUser,
  submitLogin,
  useCodeFlow,
  verifyIdToken,
  type AppClient,
  type TestUser,
} from '../support/code-flow.js';

// interface.md 4.10: GET and PATCH /auth/me, and `name` in ID tokens and UserInfo (interface.md 2.5).
const flow = useCodeFlow();

interface Me {
  id: string;
  email: string;
  emailVerified: boolean;
  realmId: string;
  createdAt: number;
  updatedAt: number | null;
  name: string | null;
}

const me = (token: string) => accountCall<Me>(flow.suite, 'GET', '/auth/me', { token });
const patchMe = (token: string, body: unknown) =>
  accountCall<Me>(flow.suite, 'PATCH', '/auth/me', { token, body });

const validation = (path: string, message: string) => ({
  error: 'Validation error',
  statusCode: 400,
  code: 'VALIDATION_ERROR',
  details: [{ path, message }],
});

async function userInfo(accessToken: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, {
    headers: { authorization: `Bearer ${String(accessToken)}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function claimsAfterSignIn(client: AppClient, user: TestUser, scope: string) {
  const tokens = await authorizedTokens(flow, client, user, { scope });
  const idToken = await verifyIdToken(flow, client, String(tokens.id_token));
  return { idToken, userInfo: await userInfo(tokens.access_token) };
}

describe('GET and PATCH /auth/me', () => {
  it('answers the user with name null, sets and clears it, with updatedAt', async () => {
    const user = await newUser(flow);
    const { accessToken } = await signIn(flow.suite, user);
    const before = await me(accessToken);
    expect({ status: before.status, body: before.body }).toEqual({
      status: 200,
      body: {
        id: user.id,
        email: user.email,
        emailVerified: false,
        realmId: expect.any(String),
        createdAt: expect.any(Number),
        updatedAt: null,
        name: null,
      },
    });

    const named = await patchMe(accessToken, { name: '  Ada Lovelace  ' });
    expect({ status: named.status, body: named.body }).toEqual({
      status: 200,
      body: { ...before.body, name: 'Ada Lovelace', updatedAt: expect.any(Number) },
    });
    expect(named.body.updatedAt).toBeGreaterThanOrEqual(before.body.createdAt);
    expect((await me(accessToken)).body).toEqual(named.body);

    const cleared = await patchMe(accessToken, { name: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ ...before.body, name: null, updatedAt: expect.any(Number) });
  });

  it('refuses a name that is missing, empty, too long or not a string, and any other token', async () => {
    const user = await newUser(flow);
    const { accessToken } = await signIn(flow.suite, user);
    const rows: [unknown, unknown][] = [
      [{}, validation('name', 'is required')],
      [{ name: '' }, validation('name', 'must be 1 to 255 characters long')],
      [{ name: '   ' }, validation('name', 'must be 1 to 255 characters long')],
      [{ name: 'n'.repeat(256) }, validation('name', 'must be 1 to 255 characters long')],
      [{ name: 42 }, validation('name', 'must be string,null')],
    ];
    for (const [body, expected] of rows) {
      const refused = await patchMe(accessToken, body);
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 400, body: expected });
    }
    // 255 code points, some outside the BMP, are fine.
    const longest = '𝒜'.repeat(200) + 'a'.repeat(55);
    expect((await patchMe(accessToken, { name: longest })).body.name).toBe(longest);

    for (const token of ['not-a-token', undefined]) {
      const refused = await accountCall(flow.suite, 'PATCH', '/auth/me', {
        ...(token === undefined ? {} : { token }),
        body: { name: 'Mallory' },
      });
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: UNAUTHORIZED });
      const read = await accountCall(flow.suite, 'GET', '/auth/me', token === undefined ? {} : { token });
      expect({ status: read.status, body: read.body }).toEqual({ status: 401, body: UNAUTHORIZED });
    }
  });
});

describe('the name claim', () => {
  it('appears in the ID token and in UserInfo under profile only once set, and goes when cleared', async () => {
    const client = await newAppClient(flow);
    const user = await newUser(flow, { verified: true });
    const { accessToken } = await signIn(flow.suite, user);

    const unnamed = await claimsAfterSignIn(client, user, 'openid profile');
    expect(unnamed.idToken).not.toHaveProperty('name');
    expect(unnamed.userInfo).toEqual({ sub: user.id });

    expect((await patchMe(accessToken, { name: 'Grace Hopper' })).status).toBe(200);
    const named = await claimsAfterSignIn(client, user, 'openid profile');
    expect(named.idToken.name).toBe('Grace Hopper');
    expect(named.userInfo).toEqual({ sub: user.id, name: 'Grace Hopper' });
    // Without profile UserInfo keeps the name back; the ID token carries it whatever the scope
    // (interface.md 2.5).
    const emailOnly = await claimsAfterSignIn(client, user, 'openid email');
    expect(emailOnly.userInfo).toEqual({ sub: user.id, email: user.email, email_verified: true });
    expect(emailOnly.idToken.name).toBe('Grace Hopper');

    expect((await patchMe(accessToken, { name: null })).status).toBe(200);
    const cleared = await claimsAfterSignIn(client, user, 'openid profile');
    expect(cleared.idToken).not.toHaveProperty('name');
    expect(cleared.userInfo).toEqual({ sub: user.id });
  });
});

describe('the consent screen', () => {
  it('promises the name under profile only to a user who has set one', async () => {
    const client = await newAppClient(flow);
    const user = await newUser(flow);
    const { accessToken } = await signIn(flow.suite, user);
    const consentText = async () => {
      const browser = new FormBrowser();
      const parameters = authorizationParameters({ client, scope: 'openid profile', pkce: newPkce() });
      const start = await browser.get(authorizeUrl(flow.suite, parameters));
      const signedIn = await submitLogin(browser, start.location!, user);
      const resumed = await browser.get(signedIn.location!);
      expect(resumed.location).toMatch(/\/ui\/consent\?/);
      return (await browser.get(resumed.location!)).text;
    };
    const unnamed = await consentText();
    expect(unnamed).toContain('Your profile (you have not set a name)');
    expect(unnamed).not.toContain('Your name');
    expect((await patchMe(accessToken, { name: 'Katherine Johnson' })).status).toBe(200);
    const named = await consentText();
    expect(named).toContain('<span>Your name</span>');
  });
});
