import { SESSION_COOKIE } from '@authz/shared/protocol';
import { describe, expect, it } from 'vitest';
import { NOT_FOUND, UNAUTHORIZED } from '../support/clients.js';
import {
  completeAuthorization,
  INVALID_CSRF,
  INVALID_GRANT,
  newAppClient,
  newUser,
  redeemCode,
  refresh,
  useCodeFlow,
  type AppClient,
  type TestUser,
} from '../support/code-flow.js';
import { FormBrowser, type BrowserResponse } from '@authz/shared/testing/form-browser';

// interface.md 4.6 and 3 through the gateway: consent is asked once per client and scope set, listed
// and revoked through the cookie-authenticated /consents/ API (docs/decisions.md #17-20).
const flow = useCodeFlow();

interface ConsentList {
  consents: { id: string; clientId: string; clientName: string; scopes: string[]; grantedAt: number }[];
  csrfToken: string;
}

const json = <T>(response: BrowserResponse) => JSON.parse(response.text) as T;
const consentsUrl = () => `${flow.suite.baseUrl}/consents/`;

async function listConsents(browser: FormBrowser): Promise<ConsentList> {
  const response = await browser.get(consentsUrl());
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('access-control-allow-origin')).toBeNull();
  return json<ConsentList>(response);
}

function revokeConsent(
  browser: FormBrowser,
  id: string,
  headers: Record<string, string>,
  path = `/consents/${id}`,
) {
  return browser.request('DELETE', `${flow.suite.baseUrl}${path}`, { headers });
}

/** A signed-in browser that has consented to `client` for `scope`. */
async function consented(client: AppClient, user: TestUser, scope = 'openid email') {
  const browser = new FormBrowser();
  const result = await completeAuthorization(flow, browser, user, { client, scope });
  expect(result.prompts).toEqual(['login', 'consent']);
  return { browser, result };
}

describe('consent is remembered (interface.md 4.5)', () => {
  it('a second authorization goes straight back to the client; a new scope asks again', async () => {
    const client = await newAppClient(flow);
    const user = await newUser(flow);
    const { browser } = await consented(client, user);

    const again = await completeAuthorization(flow, browser, user, { client });
    expect(again.prompts).toEqual([]);
    expect(again.query).toEqual({ code: expect.any(String), state: 'af0ifjsldkj', iss: flow.suite.baseUrl });
    expect((await redeemCode(flow, client, again.code!, again.verifier)).status).toBe(200);

    // A subset of what was granted needs no new consent either.
    expect((await completeAuthorization(flow, browser, user, { client, scope: 'openid' })).prompts).toEqual(
      [],
    );

    const wider = await completeAuthorization(flow, browser, user, { client, scope: 'openid email profile' });
    expect(wider.prompts).toEqual(['consent']);
    expect(wider.code).toEqual(expect.any(String));
  });

  it('is per user and per client', async () => {
    const client = await newAppClient(flow);
    const other = await newAppClient(flow);
    const user = await newUser(flow);
    const { browser } = await consented(client, user);
    expect((await completeAuthorization(flow, browser, user, { client: other })).prompts).toEqual([
      'consent',
    ]);
    expect((await consented(client, await newUser(flow))).result.prompts).toEqual(['login', 'consent']);
  });
});

describe('GET /consents/ (interface.md 4.6)', () => {
  it("lists the signed-in user's consents with the session CSRF token", async () => {
    const client = await newAppClient(flow, { name: 'Calendar' });
    const user = await newUser(flow);
    const before = Date.now();
    const { browser } = await consented(client, user);
    const list = await listConsents(browser);
    expect(list).toEqual({
      consents: [
        {
          id: expect.any(String),
          clientId: client.clientId,
          clientName: 'Calendar',
          scopes: expect.arrayContaining(['openid', 'email']),
          grantedAt: expect.any(Number),
        },
      ],
      csrfToken: expect.any(String),
    });
    expect(list.consents[0]!.scopes).toHaveLength(2);
    expect(list.consents[0]!.grantedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(list.consents[0]!.grantedAt).toBeLessThanOrEqual(Date.now() + 1000);

    // docs/decisions.md #22 spirit: with or without the trailing slash.
    const bare = await browser.get(`${flow.suite.baseUrl}/consents`);
    expect(json<ConsentList>(bare)).toEqual(list);
  });

  it.each([
    ['no cookie', undefined],
    ['an unknown session', 'f'.repeat(64)],
    ['garbage', 'not-a-session'],
  ])('%s: 401 with the envelope and consents: [] (docs/decisions.md #20)', async (_name, cookie) => {
    const browser = new FormBrowser();
    if (cookie !== undefined) browser.jar.set(SESSION_COOKIE, cookie);
    const response = await browser.get(consentsUrl());
    expect(response.status).toBe(401);
    expect(json(response)).toEqual({ ...UNAUTHORIZED, consents: [] });
  });
});

describe('DELETE /consents/{id} (interface.md 4.6, 3)', () => {
  it('revokes the consent and the refresh tokens issued under it; the next authorization asks again', async () => {
    const client = await newAppClient(flow);
    const user = await newUser(flow);
    const { browser, result } = await consented(client, user);
    const tokens = await redeemCode(flow, client, result.code!, result.verifier);
    const { consents, csrfToken } = await listConsents(browser);

    const revoked = await revokeConsent(browser, consents[0]!.id, { 'x-csrf-token': csrfToken });
    expect({ status: revoked.status, text: revoked.text }).toEqual({ status: 204, text: '' });
    expect((await listConsents(browser)).consents).toEqual([]);

    const refreshed = await refresh(flow, client, tokens.body.refresh_token as string);
    expect({ status: refreshed.status, body: refreshed.body }).toEqual({ status: 400, body: INVALID_GRANT });

    const again = await completeAuthorization(flow, browser, user, { client });
    expect(again.prompts).toEqual(['consent']);

    // Once revoked it is gone: a second DELETE is 404 (interface.md 4.6).
    const twice = await revokeConsent(browser, consents[0]!.id, { 'x-csrf-token': csrfToken });
    expect({ status: twice.status, body: json(twice) }).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('with a trailing slash', async () => {
    const { browser } = await consented(await newAppClient(flow), await newUser(flow));
    const { consents, csrfToken } = await listConsents(browser);
    const id = consents[0]!.id;
    const revoked = await revokeConsent(browser, id, { 'x-csrf-token': csrfToken }, `/consents/${id}/`);
    expect(revoked.status).toBe(204);
  });

  it.each([
    ['without X-CSRF-Token', {}],
    ['with another value', { 'x-csrf-token': 'a'.repeat(64) }],
    ['with an empty value', { 'x-csrf-token': '' }],
  ])('%s: 400 invalid_csrf_token, and the consent stays', async (_name, headers: Record<string, string>) => {
    const { browser } = await consented(await newAppClient(flow), await newUser(flow));
    const { consents } = await listConsents(browser);
    const refused = await revokeConsent(browser, consents[0]!.id, headers);
    expect({ status: refused.status, body: json(refused) }).toEqual({ status: 400, body: INVALID_CSRF });
    expect((await listConsents(browser)).consents).toHaveLength(1);
  });

  it("another session's CSRF token is refused too", async () => {
    const user = await newUser(flow);
    const client = await newAppClient(flow);
    const { browser } = await consented(client, user);
    const { browser: second } = await consented(await newAppClient(flow), user);
    const { consents } = await listConsents(browser);
    const { csrfToken: foreign } = await listConsents(second);
    const refused = await revokeConsent(browser, consents[0]!.id, { 'x-csrf-token': foreign });
    expect({ status: refused.status, body: json(refused) }).toEqual({ status: 400, body: INVALID_CSRF });
  });

  it('without a session: 401', async () => {
    const { browser } = await consented(await newAppClient(flow), await newUser(flow));
    const { consents, csrfToken } = await listConsents(browser);
    const anonymous = new FormBrowser();
    const refused = await revokeConsent(anonymous, consents[0]!.id, { 'x-csrf-token': csrfToken });
    expect({ status: refused.status, body: json(refused) }).toEqual({ status: 401, body: UNAUTHORIZED });
  });

  it("unknown or another user's consent: 404, and the other user keeps it", async () => {
    const client = await newAppClient(flow);
    const { browser: alice } = await consented(client, await newUser(flow));
    const { browser: bob } = await consented(client, await newUser(flow));
    const { csrfToken } = await listConsents(alice);
    const { consents: bobs } = await listConsents(bob);

    for (const id of [bobs[0]!.id, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const refused = await revokeConsent(alice, id, { 'x-csrf-token': csrfToken });
      expect({ status: refused.status, body: json(refused) }).toEqual({ status: 404, body: NOT_FOUND });
    }
    expect((await listConsents(bob)).consents).toHaveLength(1);
  });
});
