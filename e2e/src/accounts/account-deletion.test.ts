import { describe, expect, it } from 'vitest';
import {
  accountCall,
  querySql,
  refreshFirstParty,
  rowsMentioning,
  signIn,
  type SignedUpUser,
} from '../support/accounts.js';
import { UNAUTHORIZED, type ClientView } from '../support/clients.js';
import {
  authorizedTokens,
  INVALID_GRANT,
  newAppClient,
  newUser,
  refresh,
  useCodeFlow,
  type CodeFlowContext,
} from '../support/code-flow.js';
import { basicAuth, newClient, requestToken } from '../support/tokens.js';

// interface.md 4.10 DELETE /auth/account: its error rows, and that nothing of the user is left in
// any schema afterwards (docs/identity.md #19).
const flow: CodeFlowContext = useCodeFlow({ TRUST_PROXY: '127.0.0.1', ACCOUNT_DELETION_RATE_LIMIT: '4' });

let sequence = 0;
// Each attempt from its own address unless a test says otherwise, so only the budget a test
// looks at counts.
const fromNewAddress = () => ({ 'x-forwarded-for': `203.0.113.${(sequence += 1) % 250}` });

const INVALID_CREDENTIALS = {
  error: 'Invalid email or password',
  statusCode: 401,
  code: 'INVALID_CREDENTIALS',
};

const deleteAccount = (token: string | undefined, body?: unknown, headers = fromNewAddress()) =>
  accountCall(flow.suite, 'DELETE', '/auth/account', {
    ...(token === undefined ? {} : { token }),
    ...(body === undefined ? {} : { body }),
    headers,
  });

async function newAccount(): Promise<SignedUpUser> {
  const user = await newUser(flow, { verified: true });
  return { email: user.email, password: user.password, userId: user.id };
}

describe('DELETE /auth/account errors', () => {
  it('answers each error row with its exact body and deletes nothing', async () => {
    const user = await newAccount();
    const { accessToken } = await signIn(flow.suite, user);

    const noToken = await deleteAccount(undefined, { password: user.password });
    expect({ status: noToken.status, body: noToken.body }).toEqual({ status: 401, body: UNAUTHORIZED });

    const missing = await deleteAccount(accessToken, {});
    expect({ status: missing.status, body: missing.body }).toEqual({
      status: 400,
      body: {
        error: 'Validation error',
        statusCode: 400,
        code: 'VALIDATION_ERROR',
        details: [{ path: 'password', message: 'is required' }],
      },
    });
    const bodiless = await deleteAccount(accessToken);
    expect(bodiless.body).toEqual({
      error: 'Validation error',
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      details: [{ path: '(body)', message: 'must be object' }],
    });
    const mistyped = await deleteAccount(accessToken, { password: 12345678 });
    expect(mistyped.body).toEqual({
      error: 'Validation error',
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      details: [{ path: 'password', message: 'must be string' }],
    });
    const empty = await deleteAccount(accessToken, { password: '' });
    expect({ status: empty.status, body: empty.body }).toEqual({
      status: 400,
      body: {
        error: 'Validation error',
        statusCode: 400,
        code: 'VALIDATION_ERROR',
        details: [{ path: 'password', message: 'is required' }],
      },
    });

    const wrong = await deleteAccount(accessToken, { password: 'not-the-Password-42' });
    expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 401, body: INVALID_CREDENTIALS });

    // Still there: the token works and the account signs in.
    expect((await accountCall(flow.suite, 'GET', '/auth/me', { token: accessToken })).status).toBe(200);
    await signIn(flow.suite, user);
  });

  it('limits password attempts per account, whatever the address', async () => {
    const user = await newAccount();
    const { accessToken } = await signIn(flow.suite, user);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await deleteAccount(accessToken, { password: `wrong-Guess-${attempt}-xyz` })).status).toBe(401);
    }
    const limited = await deleteAccount(accessToken, { password: user.password });
    expect({ status: limited.status, body: limited.body }).toEqual({
      status: 429,
      body: { error: 'Too many requests', statusCode: 429, code: 'RATE_LIMITED' },
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await accountCall(flow.suite, 'GET', '/auth/me', { token: accessToken })).status).toBe(200);
  });

  it('limits password attempts per address, whatever the account', async () => {
    const address = { 'x-forwarded-for': '198.51.100.77' };
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const { accessToken } = await signIn(flow.suite, await newAccount());
      expect((await deleteAccount(accessToken, { password: 'wrong-Guess-abc' }, address)).status).toBe(401);
    }
    const { accessToken } = await signIn(flow.suite, await newAccount());
    expect((await deleteAccount(accessToken, { password: 'wrong-Guess-abc' }, address)).status).toBe(429);
  });
});

describe('DELETE /auth/account', () => {
  it('removes the account and everything the suite held of it, in every schema', async () => {
    const user = await newAccount();
    const firstParty = await signIn(flow.suite, user, 'DeletionTest/1.0');
    // The user is a developer too: a client with an API key.
    const owned = (await newClient(flow.suite, firstParty.accessToken, {
      name: 'Doomed machine',
      grantTypes: ['client_credentials'],
      responseTypes: [],
      tokenEndpointAuthMethod: 'client_secret_basic',
    })) as ClientView;
    const key = await accountCall(flow.suite, 'POST', `/api/clients/${owned.id}/api-keys`, {
      token: firstParty.accessToken,
      body: { name: 'ci' },
    });
    expect(key.status).toBe(201);
    // And the user of an app: a consent, a refresh family and a hosted browser session.
    const app = await newAppClient(flow);
    const appTokens = await authorizedTokens(
      flow,
      app,
      { id: user.userId, email: user.email, password: user.password },
      { scope: 'openid email offline_access' },
    );
    const [developer] = await querySql<{ id: string }>(
      flow.databaseUrl,
      'SELECT id FROM identity.developers WHERE user_id = $1',
      [user.userId],
    );
    const needles = [user.userId, user.email, developer!.id, owned.clientId, owned.id];
    expect((await rowsMentioning(flow.databaseUrl, needles)).length).toBeGreaterThan(5);

    const deleted = await deleteAccount(firstParty.accessToken, { password: user.password });
    expect({ status: deleted.status, body: deleted.body }).toEqual({ status: 204, body: null });
    expect(deleted.headers.get('cache-control')).toBe('no-store');

    // The sessions the deletion ended are relayed to oauth first (back-channel logout,
    // docs/identity.md #17), which takes their outbox rows with them moments later.
    await expect
      .poll(() => rowsMentioning(flow.databaseUrl, needles), { timeout: 10_000, interval: 100 })
      .toEqual([]);

    // The audit log keeps the deletion under a keyed hash of the id, and the user's earlier
    // events under the same hash instead of the id.
    const [event] = await querySql<{ actor_user_id: string | null; details: { userHash: string } }>(
      flow.databaseUrl,
      "SELECT actor_user_id, details FROM identity.audit_events WHERE type = 'account_deleted'",
    );
    expect(event).toEqual({
      actor_user_id: null,
      details: { userHash: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    const history = await querySql<{ type: string }>(
      flow.databaseUrl,
      "SELECT type FROM identity.audit_events WHERE details->>'actorHash' = $1 ORDER BY id",
      [event!.details.userHash],
    );
    expect(history.map(({ type }) => type)).toEqual(
      expect.arrayContaining([
        'registration',
        'email_verification',
        'login_success',
        'account_deletion_started',
      ]),
    );

    // Every credential of the account is dead.
    const me = await accountCall(flow.suite, 'GET', '/auth/me', { token: firstParty.accessToken });
    expect({ status: me.status, body: me.body }).toEqual({ status: 401, body: UNAUTHORIZED });
    expect(await refreshFirstParty(flow.suite, firstParty.refreshToken)).toEqual({
      status: 400,
      body: INVALID_GRANT,
    });
    const appRefresh = await refresh(flow, app, String(appTokens.refresh_token));
    expect({ status: appRefresh.status, body: appRefresh.body }).toEqual({
      status: 400,
      body: INVALID_GRANT,
    });
    const userInfo = await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${String(appTokens.access_token)}` },
    });
    expect(userInfo.status).toBe(401);
    const machine = await requestToken(
      flow.suite,
      [['grant_type', 'client_credentials']],
      basicAuth(owned.clientId, owned.clientSecret!),
    );
    expect(machine.status).toBe(401);
    const login = await accountCall(flow.suite, 'POST', '/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect({ status: login.status, body: login.body }).toEqual({ status: 401, body: INVALID_CREDENTIALS });

    // The address is free again.
    const again = await accountCall(flow.suite, 'POST', '/auth/register', {
      body: { email: user.email, password: user.password },
    });
    expect(again.status).toBe(201);
  });
});
