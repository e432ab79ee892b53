import { describe, expect, it } from 'vitest';
import { authorizedTokens, newAppClient, newUser, useCodeFlow } from '../support/code-flow.js';

// docs/security.md #11: UserInfo is limited per client, counted in oauth against the client of
// the access token once it verified, and its invalid_token answers per address in the gateway.
const CLIENT_BUDGET = 4;
const INVALID_TOKEN_BUDGET = 3;
const flow = useCodeFlow(
  {
    INVALID_TOKEN_RATE_LIMIT: String(INVALID_TOKEN_BUDGET),
    INVALID_TOKEN_RATE_WINDOW: '300',
    TRUST_PROXY: '127.0.0.1',
  },
  // Windows are fixed and aligned on the clock: an hour keeps a window boundary out of the test.
  { CLIENT_RATE_LIMIT: String(CLIENT_BUDGET), CLIENT_RATE_WINDOW: '3600' },
);

const OAUTH_RATE_LIMITED = { error: 'rate_limited', statusCode: 429, code: 'RATE_LIMITED' };
const NOT_OURS = 'eyJhbGciOiJFZERTQSJ9.e30.c2ln';

async function userInfo(token: string, address?: string) {
  const response = await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, {
    headers: { authorization: `Bearer ${token}`, ...(address ? { 'x-forwarded-for': address } : {}) },
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
}

/** A client's user token; redeeming the code spends one request of the client's budget. */
async function userToken() {
  const user = await newUser(flow);
  const client = await newAppClient(flow);
  const tokens = await authorizedTokens(flow, client, user, { scope: 'openid' });
  return { user, token: tokens.access_token as string };
}

function expectRateLimited(answer: Awaited<ReturnType<typeof userInfo>>, windowSeconds: number) {
  expect({ status: answer.status, body: answer.body }).toEqual({ status: 429, body: OAUTH_RATE_LIMITED });
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('the budgets of UserInfo (docs/security.md #11)', () => {
  it('refuses a client over its budget, from any address, and serves another client', async () => {
    const first = await userToken();
    const second = await userToken();
    // The code redemption spent one request of each client's budget.
    for (let request = 1; request < CLIENT_BUDGET; request += 1) {
      const address = `198.51.100.${request}`;
      expect(await userInfo(first.token, address)).toMatchObject({
        status: 200,
        body: { sub: first.user.id },
      });
    }
    expectRateLimited(await userInfo(first.token, '198.51.100.99'), 3600);
    expect(await userInfo(second.token)).toMatchObject({ status: 200, body: { sub: second.user.id } });
  });

  it('counts invalid tokens against the address, then refuses it even a valid token', async () => {
    const valid = await userToken();
    const guesser = '203.0.113.7';
    for (let attempt = 0; attempt < INVALID_TOKEN_BUDGET; attempt += 1) {
      const refused = await userInfo(NOT_OURS, guesser);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ error: 'invalid_token' });
    }
    expectRateLimited(await userInfo(valid.token, guesser), 300);
    expectRateLimited(await userInfo(NOT_OURS, guesser), 300);
    // Another address is not concerned.
    expect(await userInfo(valid.token, '203.0.113.8')).toMatchObject({
      status: 200,
      body: { sub: valid.user.id },
    });
  });

  it('counts an IPv6 address under its /64', async () => {
    const valid = await userToken();
    for (let attempt = 0; attempt < INVALID_TOKEN_BUDGET; attempt += 1) {
      expect((await userInfo(NOT_OURS, `2001:db8:7:1::${attempt + 1}`)).status).toBe(401);
    }
    expectRateLimited(await userInfo(valid.token, '2001:db8:7:1:ffff::1'), 300);
    expect((await userInfo(valid.token, '2001:db8:7:2::1')).status).toBe(200);
  });
});
