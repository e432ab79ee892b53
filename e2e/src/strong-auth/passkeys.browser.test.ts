import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCall, querySql, signIn } from '../support/accounts.js';
import { addVirtualAuthenticator, usePasskeyScene } from '../support/passkey-scene.js';
import type { SignInResult } from '../support/relying-party.js';
import { ACR_MFA } from '../support/strong-auth-helpers.js';

// docs/interface.md 4.11, docs/strong-authentication.md #15-#20: passkeys registered on the
// account page and used to sign in at an authorization request, in Chromium with a CDP virtual
// authenticator (user-verifying, resident keys). Chromium refuses an IP address as RP ID, so
// this suite's issuer is http://localhost:<port> (a secure context) rather than 127.0.0.1.
const scene = await usePasskeyScene({ clientName: 'Passkey test app', users: { user: 'passkey' } });
const { context, issuer } = scene;

interface MfaView {
  totp: boolean;
  recoveryCodesLeft: number;
  passkeys: { id: string; name: string; createdAt: number; lastUsedAt: number | null }[];
}

async function mfaView(): Promise<MfaView> {
  const { accessToken } = await signIn(context.suite, scene.users.user);
  const answer = await accountCall<MfaView>(context.suite, 'GET', '/auth/mfa', { token: accessToken });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** The passkey audit events of the user, oldest first, and the notice mails queued for them. */
async function passkeyRecords(): Promise<{ audit: string[]; notices: number }> {
  const audit = await querySql<{ type: string }>(
    context.environment.databaseUrl,
    `SELECT type FROM identity.audit_events WHERE actor_user_id = $1 AND type LIKE 'passkey_%' ORDER BY occurred_at, id`,
    [scene.users.user.userId],
  );
  const [notices] = await querySql<{ count: string }>(
    context.environment.databaseUrl,
    `SELECT count(*) AS count FROM identity.mail_outbox WHERE job_name = 'second-factor-changed'`,
  );
  return { audit: audit.map((row) => row.type), notices: Number(notices?.count) };
}

async function signOut(page: Page): Promise<void> {
  await page.goto(`${issuer}/ui/account`);
  const loaded = page.waitForEvent('load');
  await page.locator(`form[action="/ui/account/sign-out"]`).last().locator('button').click();
  await loaded;
}

/** Runs `act`, waits for the form POST to `path` it causes and for the account page after it. */
async function postedTo(page: Page, path: string, act: () => Promise<void>): Promise<void> {
  const posted = page.waitForResponse(
    (response) => response.url() === `${issuer}${path}` && response.request().method() === 'POST',
  );
  // The page in view is the account page until the new one loads: wait for that load.
  const loaded = page.waitForEvent('load');
  await act();
  expect((await posted).status()).toBe(303);
  await loaded;
  expect(page.url()).toBe(`${issuer}/ui/account`);
}

/** From the relying party's sign-in to the passkey button on the sign-in page. */
async function startWithPasskey(page: Page): Promise<void> {
  await page.goto(`${scene.party.origin}/start`);
  await page.waitForURL(`${issuer}/ui/login?**`);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
}

describe('passkeys in a browser', () => {
  let session: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    session = await scene.browser.newContext();
    page = await session.newPage();
    await addVirtualAuthenticator(page);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('registers a passkey from the account page after a recent sign-in', async () => {
    await scene.passwordSignIn(page, scene.users.user);
    await page.fill('#passkey-name', 'Work laptop');
    await postedTo(page, '/ui/account/passkeys', () =>
      page.getByRole('button', { name: 'Add a passkey' }).click(),
    );
    await expect(page.locator('ul.passkeys li strong').allTextContents()).resolves.toEqual(['Work laptop']);

    const view = await mfaView();
    expect(view).toEqual({
      totp: false,
      recoveryCodesLeft: 0,
      passkeys: [
        { id: expect.any(String), name: 'Work laptop', createdAt: expect.any(Number), lastUsedAt: null },
      ],
    });
  });

  it('signs in at an authorization request with the passkey alone: amr hwk user, acr mfa', async () => {
    await signOut(page);
    await startWithPasskey(page);
    await page.waitForURL(`${issuer}/ui/consent?**`);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${scene.party.origin}/callback**`);
    const result = JSON.parse((await page.textContent('#result')) ?? 'null') as SignInResult;
    expect(result.sub).toBe(scene.users.user.userId);
    expect(result.idTokenClaims).toMatchObject({ iss: issuer, aud: scene.clientId, acr: ACR_MFA });
    expect(result.idTokenClaims.amr).toEqual(['hwk', 'user']);

    const [passkey] = (await mfaView()).passkeys;
    expect(passkey?.lastUsedAt).toEqual(expect.any(Number));
  });

  it('renames and removes the passkey; a removed passkey signs in no more', async () => {
    await page.goto(`${issuer}/ui/account`);
    const item = page.locator('ul.passkeys li');
    await item.getByLabel('Rename to').fill('Old phone');
    await postedTo(page, '/ui/account/passkeys/rename', () =>
      item.getByRole('button', { name: 'Rename' }).click(),
    );
    await expect(page.locator('ul.passkeys li strong').allTextContents()).resolves.toEqual(['Old phone']);
    expect((await mfaView()).passkeys.map((passkey) => passkey.name)).toEqual(['Old phone']);

    await postedTo(page, '/ui/account/passkeys/remove', () =>
      page.locator('ul.passkeys li').getByRole('button', { name: 'Remove' }).click(),
    );
    await expect(page.locator('ul.passkeys').count()).resolves.toBe(0);
    expect((await mfaView()).passkeys).toEqual([]);
    await expect(passkeyRecords()).resolves.toEqual({
      audit: ['passkey_registered', 'passkey_renamed', 'passkey_removed'],
      notices: 2,
    });

    // The authenticator still holds the credential; the server no longer knows it.
    await signOut(page);
    await startWithPasskey(page);
    await page.waitForURL(`${issuer}/ui/login/passkey`);
    await expect(page.textContent('#sign-in-error')).resolves.toBe(
      'That passkey could not sign you in. Try again, or sign in with your password.',
    );
  });
});
