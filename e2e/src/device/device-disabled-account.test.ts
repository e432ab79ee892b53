import { SESSION_COOKIE } from '@authz/shared/protocol';
import { describe, expect, it } from 'vitest';
import { INVALID_GRANT, newUser, submitLogin, useCodeFlow } from '../support/code-flow.js';
import { FormBrowser, pageText } from '@authz/shared/testing/form-browser';
import { adminCall, newAdmin, type AdminUserView } from '../support/admin-scenes.js';
import { decideOnPages, enterUserCode, newDeviceClient, pollDevice, startDevice } from './device-scene.js';

/**
 * The device authorization grant (interface.md 4.13) meets disabled accounts (interface.md
 * 4.15, docs/admin-api.md #4): a disabled account cannot approve a device code on /ui/device,
 * and an approval given before the account was disabled issues no tokens.
 */
const flow = useCodeFlow({ DEVICE_CODE_ENTRY_RATE_LIMIT: '1000' });

const setDisabled = async (admin: { accessToken: string }, userId: string, disabled: boolean) => {
  const answer = await adminCall<AdminUserView>(flow.suite, admin, 'PATCH', `/admin/users/${userId}`, {
    disabled,
  });
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ id: userId, disabled });
};

describe('a disabled account and the device grant', () => {
  it('is refused at the sign-in of /ui/device with the page of a wrong password; enabled, it approves', async () => {
    const admin = await newAdmin(flow.suite, flow.databaseUrl);
    const user = await newUser(flow);
    const client = await newDeviceClient(flow);
    const { device_code, user_code } = await startDevice(flow, client);
    await setDisabled(admin, user.id, true);

    const base = flow.suite.baseUrl;
    const pages: string[] = [];
    for (const credentials of [user, { email: user.email, password: 'not-the-Password-42' }]) {
      const browser = new FormBrowser();
      const entered = await enterUserCode(flow, browser, user_code);
      expect(entered.status).toBe(303);
      const resumed = await browser.get(entered.location!);
      expect(resumed.status).toBe(302);
      expect(resumed.location).toMatch(new RegExp(`^${base}/ui/login\\?`));
      const refused = await submitLogin(browser, resumed.location!, credentials);
      expect(refused.status).toBe(401);
      expect(browser.jar.get(SESSION_COOKIE)).toBeUndefined();
      pages.push(refused.text.replace(/value="[^"]*"/g, '').replace(/handle=[^"&]+/g, ''));
    }
    // Nothing tells a disabled account apart from a wrong password (docs/admin-api.md #4).
    expect(pages[0]).toBe(pages[1]);
    const pending = await pollDevice(flow, client, device_code);
    expect(pending.body).toMatchObject({ error: 'authorization_pending' });

    await setDisabled(admin, user.id, false);
    const approved = await decideOnPages(flow, new FormBrowser(), user, user_code, 'allow');
    expect(approved.status).toBe(200);
    expect(pageText(approved.text)).toContain('You allowed the app on your device.');
  });

  it('ends the session of a signed-in browser: the device code needs a new sign-in, which is refused', async () => {
    const admin = await newAdmin(flow.suite, flow.databaseUrl);
    const user = await newUser(flow);
    const client = await newDeviceClient(flow);
    const browser = new FormBrowser();
    // A first device approved signs the browser in.
    const first = await startDevice(flow, client);
    await decideOnPages(flow, browser, user, first.user_code, 'allow');
    expect(browser.jar.get(SESSION_COOKIE)).toBeDefined();

    await setDisabled(admin, user.id, true);
    const second = await startDevice(flow, client);
    const entered = await enterUserCode(flow, browser, second.user_code);
    expect(entered.status).toBe(303);
    const resumed = await browser.get(entered.location!);
    expect(resumed.status).toBe(302);
    expect(resumed.location).toMatch(new RegExp(`^${flow.suite.baseUrl}/ui/login\\?`));
    expect((await submitLogin(browser, resumed.location!, user)).status).toBe(401);
  });

  it('issues no tokens for an approval given before the account was disabled', async () => {
    const admin = await newAdmin(flow.suite, flow.databaseUrl);
    const user = await newUser(flow);
    const client = await newDeviceClient(flow);
    const { device_code, user_code } = await startDevice(flow, client);
    await decideOnPages(flow, new FormBrowser(), user, user_code, 'allow');
    await setDisabled(admin, user.id, true);

    const poll = await pollDevice(flow, client, device_code);
    expect({ status: poll.status, body: poll.body }).toEqual({ status: 400, body: INVALID_GRANT });
    // The refusal spent the device code; enabling the account does not bring it back.
    await setDisabled(admin, user.id, false);
    const again = await pollDevice(flow, client, device_code);
    expect({ status: again.status, body: again.body }).toEqual({
      status: 400,
      body: { ...INVALID_GRANT, error_description: 'The device code was already used' },
    });
  });
});
