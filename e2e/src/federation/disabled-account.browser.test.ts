import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { querySql } from '../support/accounts.js';
import { adminCall, newAdmin, type AdminUserView } from '../support/admin-scenes.js';
import { launchChromium } from '../support/chromium.js';
import { providerEntry, useFederation } from './federation-setup.js';
import { heading, passUpstream } from './federation-pages.js';

// Upstream identity providers (interface.md 4.14) meet disabled accounts (interface.md 4.15,
// docs/admin-api.md #4): an account an admin disabled cannot sign in through its upstream, and
// gets the uniform refusal page, not an error; enabled again, the same upstream signs it in.
const context = useFederation(({ real }) => [
  providerEntry(real, { id: 'upstream', displayName: 'Upstream ID', trustEmail: true, createAccounts: true }),
]);

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** A fresh browser from /ui/login through the upstream: the callback's status and the page shown. */
async function signInThroughUpstream(login: string): Promise<{ status: number; heading: string | null }> {
  const session = await browser.newContext();
  const page = await session.newPage();
  await page.goto(context.url('/ui/login'));
  const answer = page.waitForResponse((response) => response.url().includes('/ui/federation/callback'));
  await page.getByRole('link', { name: 'Continue with Upstream ID' }).click();
  await passUpstream(page, context.upstreams.real.issuer, login);
  const status = (await answer).status();
  await page.waitForLoadState('domcontentloaded');
  const outcome = { status, heading: await heading(page) };
  await session.close();
  return outcome;
}

const liveSessions = async (userId: string) =>
  (
    await querySql<{ count: string }>(
      context.databaseUrl,
      `SELECT count(*)::text AS count FROM identity.sessions WHERE user_id = $1 AND ended_at IS NULL`,
      [userId],
    )
  )[0]!.count;

describe('a disabled account and upstream sign-in', () => {
  it('is refused with the uniform refusal page and opens no session; enabled, it signs in again', async () => {
    const login = `disabled-${Date.now()}`;
    const email = `${login}@upstream.example`;
    context.upstreams.real.users.set(login, { email, email_verified: true });

    expect(await signInThroughUpstream(login)).toEqual({ status: 302, heading: 'You are signed in' });
    const [account] = await querySql<{ id: string }>(
      context.databaseUrl,
      `SELECT id FROM identity.users WHERE email = $1`,
      [email],
    );
    expect(account).toBeDefined();

    const admin = await newAdmin(context.suite, context.databaseUrl);
    const disabled = await adminCall<AdminUserView>(
      context.suite,
      admin,
      'PATCH',
      `/admin/users/${account!.id}`,
      {
        disabled: true,
      },
    );
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id: account!.id, email, disabled: true });
    expect(await liveSessions(account!.id)).toBe('0');

    expect(await signInThroughUpstream(login)).toEqual({
      status: 400,
      heading: 'The sign-in could not be completed',
    });
    expect(await liveSessions(account!.id)).toBe('0');

    const enabled = await adminCall<AdminUserView>(
      context.suite,
      admin,
      'PATCH',
      `/admin/users/${account!.id}`,
      {
        disabled: false,
      },
    );
    expect(enabled.body).toMatchObject({ disabled: false, disabledAt: null });
    expect(await signInThroughUpstream(login)).toEqual({ status: 302, heading: 'You are signed in' });
    expect(await liveSessions(account!.id)).toBe('1');
    // Still one account and one credential for the upstream subject.
    const credentials = await querySql(
      context.databaseUrl,
      `SELECT user_id FROM identity.federated_credentials WHERE provider_id = 'upstream' AND user_id = $1`,
      [account!.id],
    );
    expect(credentials).toHaveLength(1);
  });
});
