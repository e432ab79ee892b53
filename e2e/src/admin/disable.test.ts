import { SESSION_COOKIE } from '@authz/shared/protocol';
import { describe, expect, it } from 'vitest';
import {
  authorizationParameters,
  authorizeUrl,
  clientCredentials,
  completeAuthorization,
  INVALID_GRANT,
  newAppClient,
  newUser,
  redeemCode,
  refresh,
  submitLogin,
  useCodeFlow,
  type TestUser,
} from '../support/code-flow.js';
import { call } from '../support/clients.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import { INACTIVE, introspect } from '../support/token-management.js';
import {
  adminCall,
  newAdmin,
  NOT_FOUND,
  refreshFirstParty,
  signInTokens,
  type AdminUserView,
  type AuditEventView,
} from '../support/admin-scenes.js';

// interface.md 4.15 accounts: disabling (docs/admin-api.md #4), enabling, ending sessions, the
// forced password reset and deletion, end to end through the gateway with a browser for the
// code flow, the SMTP sink for mail and real client credentials for introspection.
const flow = useCodeFlow();

const INVALID_CREDENTIALS = {
  error: 'Invalid email or password',
  statusCode: 401,
  code: 'INVALID_CREDENTIALS',
};

const login = (user: Pick<TestUser, 'email' | 'password'>) =>
  call(flow.suite, 'POST', '/auth/login', { body: { email: user.email, password: user.password } });

async function userInfoStatus(accessToken: string): Promise<number> {
  const response = await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return response.status;
}

/** A consented code-flow authorization of a confidential client: tokens a relying party holds. */
async function appTokens(user: TestUser) {
  const client = await newAppClient(flow);
  const result = await completeAuthorization(flow, new FormBrowser(), user, {
    client,
    scope: 'openid email',
  });
  const tokens = await redeemCode(flow, client, result.code!, result.verifier);
  expect(tokens.status).toBe(200);
  return { client, access: tokens.body.access_token as string, refresh: tokens.body.refresh_token as string };
}

describe('PATCH /admin/users/{id} { disabled }', () => {
  it('disabling refuses sign-in like wrong credentials and ends every token; enabling restores sign-in only', async () => {
    const admin = await newAdmin(flow.suite, flow.databaseUrl);
    const user = await newUser(flow);
    const app = await appTokens(user);
    const firstParty = await signInTokens(flow.suite, user.email, user.password);
    expect(await userInfoStatus(app.access)).toBe(200);

    const disabled = await adminCall<AdminUserView>(flow.suite, admin, 'PATCH', `/admin/users/${user.id}`, {
      disabled: true,
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toEqual({
      id: user.id,
      email: user.email,
      emailVerified: false,
      name: null,
      disabled: true,
      disabledAt: expect.any(Number),
      admin: false,
      createdAt: expect.any(Number),
      updatedAt: disabled.body.disabledAt,
    });

    // The same answer as a wrong password: nothing tells a disabled account apart.
    const refused = await login(user);
    const wrong = await login({ email: user.email, password: 'not-the-Password-42' });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 401,
      body: INVALID_CREDENTIALS,
    });
    expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 401, body: INVALID_CREDENTIALS });

    // Every token of the account is dead at once: refresh, introspection, UserInfo, the API.
    const { headers } = clientCredentials(app.client);
    expect((await introspect(flow.suite, [['token', app.access]], headers)).body).toEqual(INACTIVE);
    expect(await userInfoStatus(app.access)).toBe(401);
    const refreshed = await refresh(flow, app.client, app.refresh);
    expect({ status: refreshed.status, body: refreshed.body }).toEqual({ status: 400, body: INVALID_GRANT });
    expect((await refreshFirstParty(flow.suite, firstParty.refreshToken)).status).toBe(400);
    expect((await call(flow.suite, 'GET', '/auth/me', { token: firstParty.accessToken })).status).toBe(401);

    // The hosted sign-in refuses too, with the very page of a wrong password (one check in
    // identity behind every sign-in method, docs/admin-api.md #4).
    const client = await newAppClient(flow);
    const hosted = [];
    for (const credentials of [user, { email: user.email, password: 'not-the-Password-42' }]) {
      const browser = new FormBrowser();
      const started = await browser.get(authorizeUrl(flow.suite, authorizationParameters({ client })));
      const page = await submitLogin(browser, started.location!, credentials);
      expect(page.status).toBe(401);
      expect(browser.jar.get(SESSION_COOKIE)).toBeUndefined();
      hosted.push(page.text.replace(/value="[^"]*"/g, '').replace(/handle=[^"&]+/g, ''));
    }
    expect(hosted[0]).toBe(hosted[1]);

    const enabled = await adminCall<AdminUserView>(flow.suite, admin, 'PATCH', `/admin/users/${user.id}`, {
      disabled: false,
    });
    expect(enabled.body).toMatchObject({ disabled: false, disabledAt: null });
    expect((await login(user)).status).toBe(200);
    // The old tokens stay dead.
    expect(await userInfoStatus(app.access)).toBe(401);
    expect((await refresh(flow, app.client, app.refresh)).status).toBe(400);
    expect((await refreshFirstParty(flow.suite, firstParty.refreshToken)).status).toBe(400);

    // Each change is the admin's audit event.
    const events = await adminCall<{ events: AuditEventView[] }>(
      flow.suite,
      admin,
      'GET',
      `/admin/audit-events?userId=${user.id}&limit=100`,
    );
    const adminEvents = events.body.events.filter((event) => event.type.startsWith('admin_user_'));
    expect(adminEvents.map((event) => [event.type, event.actorUserId, event.details])).toEqual([
      ['admin_user_enabled', admin.id, { targetUserId: user.id }],
      ['admin_user_disabled', admin.id, { targetUserId: user.id }],
    ]);
  });

  it('emailVerified marks the address verified, audited', async () => {
    const admin = await newAdmin(flow.suite, flow.databaseUrl);
    const user = await newUser(flow);
    const verified = await adminCall<AdminUserView>(flow.suite, admin, 'PATCH', `/admin/users/${user.id}`, {
      emailVerified: true,
    });
    expect(verified.body).toMatchObject({ emailVerified: true, disabled: false });
    const me = await call(flow.suite, 'GET', '/auth/me', {
      token: (await signInTokens(flow.suite, user.email, user.password)).accessToken,
    });
    expect(me.body).toMatchObject({ emailVerified: true });
  });
});

describe('POST /admin/users/{id}/sessions/revoke and /password-reset, DELETE /admin/users/{id}', () => {
  it('ends every session: refresh refused, sign-in still possible', async () => {
    const admin = await newAdmin(flow.suite, flow.databaseUrl);
    const user = await newUser(flow);
    const one = await signInTokens(flow.suite, user.email, user.password);
    const two = await signInTokens(flow.suite, user.email, user.password);
    const revoked = await adminCall(flow.suite, admin, 'POST', `/admin/users/${user.id}/sessions/revoke`);
    expect({ status: revoked.status, body: revoked.body }).toEqual({
      status: 200,
      body: { endedSessions: 2 },
    });
    for (const tokens of [one, two]) {
      expect((await refreshFirstParty(flow.suite, tokens.refreshToken)).status).toBe(400);
      expect((await call(flow.suite, 'GET', '/auth/me', { token: tokens.accessToken })).status).toBe(401);
    }
    expect((await login(user)).status).toBe(200);
  });

  it('sends the reset mail through the forgot-password path; its link sets a new password', async () => {
    const admin = await newAdmin(flow.suite, flow.databaseUrl);
    const user = await newUser(flow);
    const sent = await adminCall(flow.suite, admin, 'POST', `/admin/users/${user.id}/password-reset`);
    expect({ status: sent.status, body: sent.body }).toEqual({
      status: 202,
      body: { message: 'Password reset email queued' },
    });
    const mail = await flow.smtp.waitFor(
      (message) => message.envelopeTo.includes(user.email) && message.subject === 'Reset your password',
    );
    expect(mail.links).toEqual([
      expect.stringMatching(new RegExp(`^${flow.suite.baseUrl}/ui/reset-password\\?token=[0-9a-f]{64}$`)),
    ]);
    const token = new URL(mail.links[0]!).searchParams.get('token');
    const reset = await call(flow.suite, 'POST', '/auth/reset-password', {
      body: { token, password: 'copper-Meadow-lantern-58' },
    });
    expect(reset.status).toBe(200);
    expect((await login({ email: user.email, password: 'copper-Meadow-lantern-58' })).status).toBe(200);
    const unknown = await adminCall(
      flow.suite,
      admin,
      'POST',
      '/admin/users/00000000-0000-4000-8000-000000000000/password-reset',
    );
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('deletes an account as DELETE /auth/account does; the audit log keeps only a hash of it', async () => {
    const admin = await newAdmin(flow.suite, flow.databaseUrl);
    const user = await newUser(flow);
    const tokens = await signInTokens(flow.suite, user.email, user.password);
    const deleted = await adminCall(flow.suite, admin, 'DELETE', `/admin/users/${user.id}`);
    expect(deleted.status).toBe(204);
    expect((await adminCall(flow.suite, admin, 'GET', `/admin/users/${user.id}`)).status).toBe(404);
    expect((await login(user)).status).toBe(401);
    expect((await refreshFirstParty(flow.suite, tokens.refreshToken)).status).toBe(400);
    const again = await adminCall(flow.suite, admin, 'DELETE', `/admin/users/${user.id}`);
    expect({ status: again.status, body: again.body }).toEqual({ status: 404, body: NOT_FOUND });

    const events = await adminCall<{ events: AuditEventView[] }>(
      flow.suite,
      admin,
      'GET',
      `/admin/audit-events?userId=${admin.id}&type=admin_user_deletion_started`,
    );
    expect(events.body.events).toHaveLength(1);
    expect(events.body.events[0]!.details).toEqual({ targetHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(events.body)).not.toContain(user.id);
  });
});
