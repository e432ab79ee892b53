import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, launchChromium } from '../support/chromium.js';
import { useSuite } from '../support/use-suite.js';
import {
  accessTokenStatus,
  login,
  mailsTo,
  NEW_PASSWORD,
  newEmail,
  PASSWORD,
  register,
  signIn,
} from './account-scenes.js';

// interface.md 4.10 in Chromium, as a person would: the hosted pages, without JavaScript,
// with the link taken from the mail the SMTP sink received.
const context = useSuite({ smtp: true, gatewayEnv: { LOGIN_RATE_LIMIT: '1000' } });
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function withPage(test: (page: Page) => Promise<void>): Promise<void> {
  const session = await browser.newContext({ javaScriptEnabled: false });
  try {
    await test(await session.newPage());
  } finally {
    await session.close();
  }
}

const heading = (page: Page) => page.locator('h1').textContent();

async function signInOnPage(page: Page, email: string, password: string): Promise<void> {
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('form [type=submit]');
}

describe('the account-recovery pages in a browser', () => {
  it('resets a forgotten password from the login page and the mailed link', async () => {
    const email = newEmail('browser-reset');
    await register(context, email);
    const earlier = await signIn(context, email);
    await withPage(async (page) => {
      await page.goto(context.url('/ui/login'));
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.waitForURL(context.url('/ui/forgot-password'));
      await page.fill('input[name=email]', email);
      await page.getByRole('button', { name: 'Send the link' }).click();
      expect(await heading(page)).toBe('Check your email');

      const [mail] = await mailsTo(context, email, 'Reset your password');
      const link = mail!.links[0]!;
      await page.goto(link);
      expect(await heading(page)).toBe('Choose a new password');
      await page.screenshot({ path: join(ARTIFACTS_DIR, 'reset-password-page.png'), fullPage: true });
      // A weak password: the form again, the field marked, the link still usable.
      await page.fill('input[name=password]', 'short');
      await page.getByRole('button', { name: 'Set the new password' }).click();
      await expect(page.locator('#password[aria-invalid=true]').count()).resolves.toBe(1);
      await expect(page.getByRole('alert').textContent()).resolves.toContain(
        'must be 8 to 128 characters long',
      );
      await page.fill('input[name=password]', NEW_PASSWORD);
      await page.getByRole('button', { name: 'Set the new password' }).click();
      expect(await heading(page)).toBe('Your password was reset');

      // The link is single use.
      await page.goto(link);
      await page.fill('input[name=password]', 'another-Lantern-meadow-41');
      await page.getByRole('button', { name: 'Set the new password' }).click();
      expect(await heading(page)).toBe('This link is invalid or has expired');

      await page.goto(context.url('/ui/login'));
      await signInOnPage(page, email, NEW_PASSWORD);
      expect(await heading(page)).toBe('You are signed in');
    });
    expect(await accessTokenStatus(context, earlier.access_token)).toBe(401);
    expect((await login(context, email, PASSWORD)).status).toBe(401);
  });

  it('verifies an address only when the Confirm button is pressed', async () => {
    const email = newEmail('browser-verify');
    await register(context, email);
    const [mail] = await mailsTo(context, email, 'Verify your email address');
    await withPage(async (page) => {
      await page.goto(mail!.links[0]!);
      expect(await heading(page)).toBe('Confirm your email address');
      expect((await login(context, email)).status).toBe(200);
      const before = await signIn(context, email);
      expect(
        JSON.parse(Buffer.from(before.access_token.split('.')[1]!, 'base64url').toString()).email_verified,
      ).toBe(false);
      await page.getByRole('button', { name: 'Confirm' }).click();
      expect(await heading(page)).toBe('Email address confirmed');
    });
    const after = await signIn(context, email);
    expect(
      JSON.parse(Buffer.from(after.access_token.split('.')[1]!, 'base64url').toString()).email_verified,
    ).toBe(true);
  });

  it('changes the password and the address of a signed-in browser', async () => {
    const email = newEmail('browser-account');
    const nextEmail = newEmail('browser-account-next');
    await register(context, email);
    const elsewhere = await signIn(context, email);
    await withPage(async (page) => {
      await page.goto(context.url('/ui/account/password'));
      expect(await heading(page)).toBe('You are not signed in');
      await page.getByRole('link', { name: 'Sign in' }).click();
      await signInOnPage(page, email, PASSWORD);
      await page.waitForURL(context.url('/ui/account/password'));
      await page.fill('input[name=current_password]', PASSWORD);
      await page.fill('input[name=new_password]', NEW_PASSWORD);
      await page.getByRole('button', { name: 'Change the password' }).click();
      expect(await heading(page)).toBe('Your password was changed');
      expect(await accessTokenStatus(context, elsewhere.access_token)).toBe(401);

      // Still signed in: the email page opens without a sign-in.
      await page.goto(context.url('/ui/account/email'));
      expect(await heading(page)).toBe('Change your email address');
      await page.fill('input[name=new_email]', nextEmail);
      await page.fill('input[name=password]', NEW_PASSWORD);
      await page.getByRole('button', { name: 'Send a confirmation link' }).click();
      expect(await heading(page)).toBe('Check your new mailbox');

      const [mail] = await mailsTo(context, nextEmail, 'Confirm your new email address');
      await page.goto(mail!.links[0]!);
      await page.getByRole('button', { name: 'Confirm' }).click();
      expect(await heading(page)).toBe('Email address confirmed');
    });
    expect((await login(context, nextEmail, NEW_PASSWORD)).status).toBe(200);
    await mailsTo(context, email, 'The email address of your account was changed');
  });
});
