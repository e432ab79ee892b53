import { describe, expect, it } from 'vitest';
import { authRoutes, systemRoutes } from './hostile-routes/index.js';
import { useHostileSuite } from './hostile-suite.js';

// docs/security.md "Hostile input": generated requests at first-party authentication (spec
// 4.2) and the unauthenticated operational and discovery routes (4.1, 4.4).
const hostile = useHostileSuite();

describe('the write log the suite judges refusals by', () => {
  it('sees what a sign-in writes, and only the audit row of a refused one', async () => {
    const { user } = hostile.fixtures;
    const signIn = (password: string) =>
      hostile.flow.suite.gateway.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: user.email, password },
      });
    await hostile.writeLog.since();
    expect((await signIn(user.password)).statusCode).toBe(200);
    expect(await hostile.writeLog.since()).toEqual(
      expect.arrayContaining(['INSERT identity.sessions', 'INSERT oauth.refresh_tokens']),
    );
    expect((await signIn('wrong-Password-1234')).statusCode).toBe(401);
    expect(await hostile.writeLog.since()).toEqual(['INSERT identity.audit_events']);
  });
});

describe('hostile input at /auth/*, /, /health, /metrics, /.well-known/* and unknown paths', () => {
  it('first-party authentication: never fails, answers the envelope, writes nothing when refusing', async () => {
    for (const route of authRoutes(hostile.fixtures)) await hostile.check(route);
  }, 600_000);

  it('system and discovery routes: never fail, keep their headers and cache policy', async () => {
    for (const route of systemRoutes()) await hostile.check(route);
  }, 600_000);
});
