import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passUpstream } from '../federation/federation-pages.js';
import { providerEntry, useUpstreamProviders } from '../federation/federation-setup.js';
import { signIn } from '../support/accounts.js';
import { adminCall, newAdmin } from '../support/admin-scenes.js';
import { launchChromium } from '../support/chromium.js';
import { call } from '../support/clients.js';
import {
  authorizedTokens,
  newAppClient,
  newUser,
  useCodeFlow,
  verifyEmail,
  type AppClient,
  type TestUser,
} from '../support/code-flow.js';

// docs/identity.md #25 (profile changes are announced): oauth keeps the profiles identity's GetUser
// answers, and identity announces each change before it answers its caller. So UserInfo
// (interface.md 4.3), read just before a change (the profile is then cached) and right after it,
// already shows the change; nothing here waits for the cache's TTL.

// An upstream OpenID Provider for the link and unlink (interface.md 4.14), known before the suite starts.
const providers = useUpstreamProviders(({ real }) => [
  providerEntry(real, {
    id: 'upstream',
    displayName: 'Upstream ID',
    trustEmail: true,
    createAccounts: false,
  }),
]);
const flow = useCodeFlow({}, { UPSTREAM_IDPS_FILE: providers.file, CIMD_ALLOW_INSECURE_LOOPBACK: 'true' });
let browser: Browser;
beforeAll(async () => {
  await providers.upstreams().real.acceptRedirectsTo(`${flow.suite.baseUrl}/ui/federation/callback`);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

const url = (path: string) => `${flow.suite.baseUrl}${path}`;

async function userInfo(accessToken: string) {
  const response = await fetch(url('/oauth/userinfo'), {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The access token of a consented authorization under the email scope, as a relying party holds it. */
async function accessToken(user: TestUser, client?: AppClient): Promise<string> {
  const tokens = await authorizedTokens(flow, client ?? (await newAppClient(flow)), user, {
    scope: 'openid email',
  });
  return tokens.access_token as string;
}

/** UserInfo's answer with a verified address, else with `sub` alone (interface.md 4.3). */
const withEmail = (user: TestUser, email = user.email) => ({
  status: 200,
  body: { sub: user.id, email, email_verified: true },
});
const withoutEmail = (user: TestUser) => ({ status: 200, body: { sub: user.id } });

describe('UserInfo right after a profile change (docs/identity.md #25)', () => {
  it('a confirmed email change: the new address (interface.md 4.2 change-email)', async () => {
    const user = await newUser(flow, { verified: true });
    const token = await accessToken(user);
    expect(await userInfo(token)).toEqual(withEmail(user));

    const moved = user.email.replace('@', '.moved@');
    const { accessToken: firstParty } = await signIn(flow.suite, user);
    const asked = await call(flow.suite, 'POST', '/auth/change-email', {
      token: firstParty,
      body: { newEmail: moved, password: user.password },
    });
    expect(asked.status).toBe(202);
    // The link mailed to the new address, confirmed as its page does.
    await verifyEmail(flow, moved);

    expect(await userInfo(token)).toEqual(withEmail(user, moved));
  });

  it('an admin turning emailVerified off, then on (interface.md 4.15 PATCH /admin/users/{id})', async () => {
    const admin = await newAdmin(flow.suite, flow.databaseUrl);
    const user = await newUser(flow, { verified: true });
    const token = await accessToken(user);
    expect(await userInfo(token)).toEqual(withEmail(user));

    for (const [emailVerified, expected] of [
      [false, withoutEmail(user)],
      [true, withEmail(user)],
    ] as const) {
      const patched = await adminCall(flow.suite, admin, 'PATCH', `/admin/users/${user.id}`, {
        emailVerified,
      });
      expect({ status: patched.status, emailVerified: patched.body.emailVerified }).toEqual({
        status: 200,
        emailVerified,
      });
      expect(await userInfo(token)).toEqual(expected);
    }
  });

  it('a completed password reset of an unverified account: the address it proved', async () => {
    const user = await newUser(flow);
    const client = await newAppClient(flow);
    const before = await accessToken(user, client);
    expect(await userInfo(before)).toEqual(withoutEmail(user));

    const asked = await call(flow.suite, 'POST', '/auth/forgot-password', { body: { email: user.email } });
    expect(asked.status).toBe(200);
    const mail = await flow.smtp.waitFor(
      (message) => message.envelopeTo.includes(user.email) && message.subject === 'Reset your password',
    );
    const password = 'copper-Meadow-lantern-58';
    const reset = await call(flow.suite, 'POST', '/auth/reset-password', {
      body: { token: new URL(mail.links[0]!).searchParams.get('token'), password },
    });
    expect({ status: reset.status, body: reset.body }).toEqual({
      status: 200,
      body: { message: 'Password reset' },
    });

    // The reset denies every access token of the user (interface.md 4.2): the relying party
    // signs the user in again, and the new token's UserInfo shows the address the reset verified.
    expect(await userInfo(before)).toEqual({
      status: 401,
      body: {
        error: 'invalid_token',
        error_description: 'The access token has been revoked',
        code: 'INVALID_TOKEN',
        statusCode: 401,
      },
    });
    const after = await accessToken({ ...user, password }, client);
    expect(await userInfo(after)).toEqual(withEmail(user));
  });

  it('an upstream identity linked, then unlinked: oidc_* outranks self_reported (docs/federation.md #10)', async () => {
    const user = await newUser(flow, { verified: true });
    const token = await accessToken(user);
    expect(await userInfo(token)).toEqual(withEmail(user));

    const login = `member-${user.id}`;
    const upstreamEmail = `${login}@upstream.example`;
    const upstream = providers.upstreams().real;
    upstream.users.set(login, { email: upstreamEmail, email_verified: true });
    const session = await browser.newContext();
    const page = await session.newPage();
    await page.goto(url('/ui/login?next=account'));
    await page.fill('input[type=email][name=email]', user.email);
    await page.fill('input[type=password][name=password]', user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(url('/ui/account'));
    await page.getByRole('button', { name: 'Link Upstream ID' }).click();
    await page.getByRole('link', { name: 'Continue to Upstream ID' }).click();
    await passUpstream(page, upstream.issuer, login);
    await page.waitForURL(url('/ui/account?done=upstream-linked'));
    expect(await userInfo(token)).toEqual(withEmail(user, upstreamEmail));

    await page.getByRole('button', { name: 'Unlink Upstream ID' }).click();
    await page.waitForURL(url('/ui/account?done=upstream-unlinked'));
    expect(await userInfo(token)).toEqual(withEmail(user));
    await session.close();
  });
});
