import type { Page } from 'playwright-core';

/**
 * Passes the browser through an upstream's screens until it has left `upstream`: the
 * node-oidc-provider development login (any login name is its `sub`) and consent, whichever
 * it shows; an upstream that answers at once (the hostile one) shows none.
 */
export async function passUpstream(page: Page, upstream: string, login: string): Promise<void> {
  for (let step = 0; step < 6; step += 1) {
    await page.waitForLoadState('domcontentloaded');
    if (!page.url().startsWith(`${upstream}/`)) return;
    if ((await page.locator('input[name=login]').count()) > 0) {
      await page.fill('input[name=login]', login);
      if ((await page.locator('input[name=password]').count()) > 0) {
        await page.fill('input[name=password]', 'any password');
      }
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign-in' }).click()]);
    } else {
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Continue' }).click()]);
    }
  }
  throw new Error(`still at the upstream: ${page.url()}`);
}

/** The heading of the page the browser shows. */
export async function heading(page: Page): Promise<string | null> {
  return await page.locator('h1').textContent();
}
