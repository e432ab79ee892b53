import { describe, expect, it } from 'vitest';
import { INVALID_CSRF, formOf, newUser, submitLogin, useCodeFlow } from '../support/code-flow.js';
import { FormBrowser, pageText } from '@authz/shared/testing/form-browser';
import {
  DEVICE_GRANT,
  WRONG_USER_CODE_MESSAGE,
  decideOnPages,
  enterUserCode,
  newDeviceClient,
  startDevice,
} from './device-scene.js';

// interface.md 4.13: the /ui/device pages over HTTP, their refusals and the per-user-code limit
// (docs/device-grant.md #4). The per-address budget has its own file (device-entry-limit.test.ts).
const flow = useCodeFlow({ DEVICE_CODE_ENTRY_RATE_LIMIT: '1000' });

const isConsentForm = (form: { buttons: { text: string }[] }) =>
  form.buttons.some((button) => button.text === 'Allow');

function expectWrongCodePage(page: { status: number; text: string }, typed: string): void {
  expect(page.status).toBe(400);
  expect(page.text).toContain(
    `<p class="alert" role="alert" id="user-code-error">${WRONG_USER_CODE_MESSAGE}</p>`,
  );
  expect(page.text).toContain(`value="${typed}"`);
}

describe('GET and POST /ui/device', () => {
  it('pre-fills the code from verification_uri_complete, escaped, without acting on it', async () => {
    const browser = new FormBrowser();
    const page = await browser.get(`${flow.suite.baseUrl}/ui/device?user_code=%22%3E%3Cb%3Ex`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<h1>Connect a device</h1>');
    expect(page.text).toContain('value="&quot;&gt;&lt;b&gt;x"');
    expect(page.setCookies.some((cookie) => cookie.startsWith('__Host-service_login='))).toBe(true);
  });

  it('gives one message for a malformed, an unknown and a mistyped code', async () => {
    const browser = new FormBrowser();
    for (const typed of ['hello', 'BCDF-GHJK', 'AAAA-AAAA', 'BCDF-GHJ']) {
      expectWrongCodePage(await enterUserCode(flow, browser, typed), typed);
    }
  });

  it('refuses a form without its CSRF token, byte for byte', async () => {
    const client = await newDeviceClient(flow);
    const { user_code } = await startDevice(flow, client);
    const browser = new FormBrowser();
    await browser.get(`${flow.suite.baseUrl}/ui/device`);
    const posted = await browser.post(`${flow.suite.baseUrl}/ui/device`, [['user_code', user_code]]);
    expect({ status: posted.status, body: JSON.parse(posted.text) }).toEqual({
      status: 400,
      body: INVALID_CSRF,
    });
  });

  it('takes a code in any case, with or without its dash, then signs the user in', async () => {
    const client = await newDeviceClient(flow);
    const { user_code } = await startDevice(flow, client);
    const browser = new FormBrowser();
    const entered = await enterUserCode(flow, browser, ` ${user_code.replace('-', '').toLowerCase()} `);
    expect(entered.status).toBe(303);
    const resumed = await browser.get(entered.location!);
    expect(resumed.status).toBe(302);
    expect(resumed.location).toMatch(new RegExp(`^${flow.suite.baseUrl}/ui/login\\?handle=`));
    const login = await browser.get(resumed.location!);
    expect(login.text).toContain('<h1>Sign in to continue to Living room TV</h1>');
  });

  it('limits the entries of one user code, even the right one', async () => {
    const client = await newDeviceClient(flow);
    const { user_code } = await startDevice(flow, client);
    const browser = new FormBrowser();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await enterUserCode(flow, browser, user_code)).status).toBe(303);
    }
    const limited = await enterUserCode(flow, browser, user_code);
    expect(limited.status).toBe(429);
    expect(pageText(limited.text)).toBe('Too many attempts Wait a few minutes, then try again.');
  });
});

describe('the device consent screen', () => {
  it('needs a session, and a prompt of this session', async () => {
    const base = flow.suite.baseUrl;
    const noSession = await new FormBrowser().get(`${base}/ui/device/consent?handle=${'a'.repeat(43)}`);
    expect(noSession.status).toBe(401);
    expect(noSession.text).toContain('<h1>You are not signed in</h1>');

    const client = await newDeviceClient(flow);
    const { user_code } = await startDevice(flow, client);
    const owner = new FormBrowser();
    const entered = await enterUserCode(flow, owner, user_code);
    const toLogin = await owner.get(entered.location!);
    await submitLogin(owner, toLogin.location!, await newUser(flow));
    const toConsent = await owner.get(entered.location!);
    expect(toConsent.location).toMatch(/\/ui\/device\/consent\?handle=/);

    const stranger = new FormBrowser();
    await submitLogin(stranger, `${base}/ui/login`, await newUser(flow));
    const foreign = await stranger.get(toConsent.location!);
    expect(foreign.status).toBe(400);
    expect(foreign.text).toContain('<h1>This sign-in request has expired or was already used</h1>');

    const page = await owner.get(toConsent.location!);
    const form = formOf(page, toConsent.location!, isConsentForm);
    const forged = form.hidden.map(([name, value]): [string, string] =>
      name === 'csrf_token' ? [name, 'f'.repeat(value.length)] : [name, value],
    );
    const refused = await owner.post(form.action, [...forged, ['decision', 'allow']]);
    expect({ status: refused.status, body: JSON.parse(refused.text) }).toEqual({
      status: 400,
      body: INVALID_CSRF,
    });
  });

  it('calls a dynamically registered device client unverified', async () => {
    const registered = await fetch(`${flow.suite.baseUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Totally Official TV',
        grant_types: [DEVICE_GRANT],
        token_endpoint_auth_method: 'none',
        scope: 'openid',
      }),
    });
    expect(registered.status).toBe(201);
    const metadata = (await registered.json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ grant_types: [DEVICE_GRANT], response_types: [], redirect_uris: [] });
    const client = { clientId: metadata.client_id as string, confidential: false } as never;
    const { user_code } = await startDevice(flow, client, 'openid');
    const browser = new FormBrowser();
    const entered = await enterUserCode(flow, browser, user_code);
    const toLogin = await browser.get(entered.location!);
    await submitLogin(browser, toLogin.location!, await newUser(flow));
    const toConsent = await browser.get(entered.location!);
    const page = await browser.get(toConsent.location!);
    expect(page.text).toContain('<h1>Allow an unverified app on your device to access your account?</h1>');
    expect(pageText(page.text)).toContain('It calls itself “Totally Official TV”');
  });

  it('answers a second decision on the same device with the expired page', async () => {
    const client = await newDeviceClient(flow);
    const { user_code } = await startDevice(flow, client);
    const user = await newUser(flow);
    const browser = new FormBrowser();
    // Two tabs enter the same code; the first decision wins.
    const first = await enterUserCode(flow, browser, user_code);
    const second = await enterUserCode(flow, browser, user_code);
    const toLogin = await browser.get(first.location!);
    await submitLogin(browser, toLogin.location!, user);
    const firstConsent = (await browser.get(first.location!)).location!;
    const secondConsent = (await browser.get(second.location!)).location!;
    const page = await browser.get(firstConsent);
    const form = formOf(page, firstConsent, isConsentForm);
    const fields = form.hidden.filter(([name]) => name !== 'decision');
    expect((await browser.post(form.action, [...fields, ['decision', 'deny']])).status).toBe(303);
    const late = await browser.get(secondConsent);
    expect(late.status).toBe(400);
    expect(late.text).toContain('<h1>This sign-in request has expired or was already used</h1>');
  });

  it('shows the pages that end the flow', async () => {
    const client = await newDeviceClient(flow);
    const { user_code } = await startDevice(flow, client);
    const approved = await decideOnPages(flow, new FormBrowser(), await newUser(flow), user_code, 'allow');
    expect(pageText(approved.text)).toBe(
      'Device connected You allowed the app on your device. Go back to your device: it signs in by itself. You can close this page.',
    );
  });
});
