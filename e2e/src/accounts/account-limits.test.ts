import { describe, expect, it } from 'vitest';
import { call } from '../support/clients.js';
import { useSuite } from '../support/use-suite.js';
import { NEW_PASSWORD, newEmail, PASSWORD, RATE_LIMITED, register, signIn } from './account-scenes.js';

// interface.md 4.10, docs/gateway-routes.md #10: each account-recovery route has a per-IP
// budget (the LOGIN_RATE_* values, here 3 per window), shared with its hosted page's POST,
// and the Bearer routes a per-account one; over it, 429 with Retry-After and the envelope.
const context = useSuite({ gatewayEnv: { LOGIN_RATE_LIMIT: '3', LOGIN_RATE_WINDOW: '600' } });

async function expectLimited(response: { status: number; headers: Headers; body: unknown }) {
  expect(response.status).toBe(429);
  expect(response.body).toEqual(RATE_LIMITED);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(600);
}

describe('account-recovery budgets', () => {
  it('limits forgot-password per IP across addresses, the page POST included', async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const answer = await call(context.suite, 'POST', '/auth/forgot-password', {
        body: { email: newEmail('ip') },
      });
      expect(answer.status).toBe(200);
    }
    // The page's POST counts against the same budget (its CSRF refusal is still counted).
    const page = await fetch(context.url('/ui/forgot-password'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: newEmail('ip') }).toString(),
    });
    expect(page.status).toBe(400);
    const limited = await call(context.suite, 'POST', '/auth/forgot-password', {
      body: { email: newEmail('ip') },
    });
    await expectLimited(limited);
  });

  it('limits reset-password per IP', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const answer = await call(context.suite, 'POST', '/auth/reset-password', {
        body: { token: 'c'.repeat(64), password: NEW_PASSWORD },
      });
      expect(answer.status).toBe(400);
    }
    await expectLimited(
      await call(context.suite, 'POST', '/auth/reset-password', {
        body: { token: 'c'.repeat(64), password: NEW_PASSWORD },
      }),
    );
  });

  it('limits guesses at the current password', async () => {
    const email = newEmail('guess');
    await register(context, email);
    const { access_token: token } = await signIn(context, email);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const answer = await call(context.suite, 'POST', '/auth/change-password', {
        token,
        body: { currentPassword: `wrong-${attempt}-Password`, newPassword: NEW_PASSWORD },
      });
      expect(answer.status).toBe(401);
    }
    await expectLimited(
      await call(context.suite, 'POST', '/auth/change-password', {
        token,
        body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
      }),
    );
  });
});
