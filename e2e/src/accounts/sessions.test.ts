import { describe, expect, it } from 'vitest';
import {
  accountCall,
  refreshFirstParty,
  signIn,
  signUp,
  type FirstPartySignIn,
} from '../support/accounts.js';
import { NOT_FOUND, UNAUTHORIZED } from '../support/clients.js';
import { bearerChallenge } from '../support/http.js';
import { useSuite } from '../support/use-suite.js';

// interface.md 4.10: GET /auth/sessions and DELETE /auth/sessions/{id}.
const context = useSuite();

const LAPTOP = 'Mozilla/5.0 (X11; Linux x86_64) SessionsTest/1.0';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) SessionsTest/2.0';

interface SessionItem {
  id: string;
  createdAt: number;
  lastSeenAt: number;
  userAgent: string | null;
  current: boolean;
}

const listSessions = (token: string) =>
  accountCall<{ sessions: SessionItem[] }>(context.suite, 'GET', '/auth/sessions', { token });

describe('GET /auth/sessions', () => {
  it("lists the user's live sessions with their User-Agent, marking the caller's as current", async () => {
    const before = Date.now();
    const user = await signUp(context.suite, 'sessions');
    const laptop = await signIn(context.suite, user, LAPTOP);
    const phone = await signIn(context.suite, user, PHONE);
    // Another account's session is never listed.
    await signIn(context.suite, await signUp(context.suite, 'other'), LAPTOP);

    const listed = await listSessions(laptop.accessToken);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(listed.body).toEqual({
      sessions: [
        {
          id: laptop.sessionId,
          createdAt: expect.any(Number),
          lastSeenAt: expect.any(Number),
          userAgent: LAPTOP,
          current: true,
        },
        {
          id: phone.sessionId,
          createdAt: expect.any(Number),
          lastSeenAt: expect.any(Number),
          userAgent: PHONE,
          current: false,
        },
      ],
    });
    for (const session of listed.body.sessions) {
      expect(session.createdAt).toBeGreaterThanOrEqual(before - 1000);
      expect(session.lastSeenAt).toBeGreaterThanOrEqual(session.createdAt - 1000);
    }
    const fromPhone = await listSessions(phone.accessToken);
    expect(fromPhone.body.sessions.map(({ id, current }) => ({ id, current }))).toEqual([
      { id: laptop.sessionId, current: false },
      { id: phone.sessionId, current: true },
    ]);
  });

  it('records a null userAgent when the sign-in sent none', async () => {
    const user = await signUp(context.suite, 'noagent');
    const login = await fetch(context.url('/auth/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': '' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const listed = await listSessions(token);
    expect(listed.body.sessions).toEqual([expect.objectContaining({ userAgent: null, current: true })]);
  });

  it('answers 401 without a live first-party token', async () => {
    const missing = await accountCall(context.suite, 'GET', '/auth/sessions');
    expect({ status: missing.status, body: missing.body }).toEqual({ status: 401, body: UNAUTHORIZED });
    expect(missing.headers.get('www-authenticate')).toBe(bearerChallenge(context.suite.baseUrl));
    const garbage = await listSessions('not-a-token');
    expect({ status: garbage.status, body: garbage.body }).toEqual({ status: 401, body: UNAUTHORIZED });
  });
});

describe('DELETE /auth/sessions/{id}', () => {
  it("ends another of the user's sessions: its refresh token fails and its access token stops working", async () => {
    const user = await signUp(context.suite, 'ending');
    const laptop = await signIn(context.suite, user, LAPTOP);
    const phone: FirstPartySignIn = await signIn(context.suite, user, PHONE);
    expect((await accountCall(context.suite, 'GET', '/auth/me', { token: phone.accessToken })).status).toBe(
      200,
    );

    const ended = await accountCall(context.suite, 'DELETE', `/auth/sessions/${phone.sessionId}`, {
      token: laptop.accessToken,
    });
    expect({ status: ended.status, body: ended.body }).toEqual({ status: 204, body: null });

    const refreshed = await refreshFirstParty(context.suite, phone.refreshToken);
    expect(refreshed).toEqual({
      status: 400,
      body: { error: 'invalid_grant', code: 'INVALID_GRANT', statusCode: 400 },
    });
    for (const path of ['/auth/me', '/auth/sessions']) {
      const refused = await accountCall(context.suite, 'GET', path, { token: phone.accessToken });
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: UNAUTHORIZED });
    }
    const remaining = await listSessions(laptop.accessToken);
    expect(remaining.body.sessions.map(({ id }) => id)).toEqual([laptop.sessionId]);
    // The caller's own session still refreshes.
    expect((await refreshFirstParty(context.suite, laptop.refreshToken)).status).toBe(200);

    // Ending it again: it is no longer a live session.
    const again = await accountCall(context.suite, 'DELETE', `/auth/sessions/${phone.sessionId}`, {
      token: laptop.accessToken,
    });
    expect({ status: again.status, body: again.body }).toEqual({ status: 404, body: NOT_FOUND });
  });

  it("answers 404 for another user's session, an unknown id and a malformed one, and ends nothing", async () => {
    const owner = await signIn(context.suite, await signUp(context.suite, 'owner'), LAPTOP);
    const intruder = await signIn(context.suite, await signUp(context.suite, 'intruder'), PHONE);
    for (const id of [owner.sessionId, '00000000-0000-4000-8000-000000000000', 'not-a-session']) {
      const refused = await accountCall(context.suite, 'DELETE', `/auth/sessions/${id}`, {
        token: intruder.accessToken,
      });
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 404, body: NOT_FOUND });
    }
    expect((await listSessions(owner.accessToken)).body.sessions.map(({ id }) => id)).toEqual([
      owner.sessionId,
    ]);
    expect((await refreshFirstParty(context.suite, owner.refreshToken)).status).toBe(200);
  });

  it('answers 401 without a token, before looking at the id', async () => {
    const refused = await accountCall(
      context.suite,
      'DELETE',
      '/auth/sessions/00000000-0000-4000-8000-000000000000',
    );
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: UNAUTHORIZED });
  });
});
