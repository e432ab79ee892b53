import { join } from 'node:path';
import * as oidc from 'openid-client';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, launchChromium } from '../support/chromium.js';
import { newUser, useCodeFlow, type AppClient, type TestUser } from '../support/code-flow.js';
import { newDeviceClient, USER_CODE } from './device-scene.js';

// interface.md 4.13 as a person and a device live it: openid-client's device-flow API is the
// device (RFC 8628: device authorization request, then polling), Chromium is the phone on which
// the user opens the verification URI, signs in, and allows or denies.
const flow = useCodeFlow();

let browser: Browser;
let session: BrowserContext;
let client: AppClient;
let user: TestUser;
let device: oidc.Configuration;

beforeAll(async () => {
  client = await newDeviceClient(flow, { name: 'Kitchen display' });
  user = await newUser(flow);
  device = await oidc.discovery(new URL(flow.suite.baseUrl), client.clientId, undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
  browser = await launchChromium();
  session = await browser.newContext();
});

afterAll(async () => {
  await session?.close();
  await browser?.close();
});

describe('the device flow with openid-client and Chromium', () => {
  it('ends with tokens at the polling device once the user allows on /ui/device', async () => {
    const authorization = await oidc.initiateDeviceAuthorization(device, {
      scope: 'openid email offline_access',
    });
    expect(authorization.user_code).toMatch(USER_CODE);
    expect(authorization.verification_uri).toBe(`${flow.suite.baseUrl}/ui/device`);
    const polling = oidc.pollDeviceAuthorizationGrant(device, authorization);

    const page = await session.newPage();
    await page.goto(authorization.verification_uri_complete!);
    // Pre-filled from the link, yet nothing happens until the user confirms.
    await expect(page.inputValue('input[name=user_code]')).resolves.toBe(authorization.user_code);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'device-code-page.png'), fullPage: true });
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL(`${flow.suite.baseUrl}/ui/login?**`);
    await expect(page.textContent('h1')).resolves.toBe('Sign in to continue to Kitchen display');
    await page.fill('input[type=email][name=email]', user.email);
    await page.fill('input[type=password][name=password]', user.password);
    await page.click('form [type=submit]');

    await page.waitForURL(`${flow.suite.baseUrl}/ui/device/consent?**`);
    await expect(page.textContent('h1')).resolves.toBe(
      'Allow Kitchen display on your device to access your account?',
    );
    await expect(page.textContent('main')).resolves.toContain('Did you start this on your device?');
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'device-consent-page.png'), fullPage: true });
    await page.getByRole('button', { name: 'Allow' }).click();

    await page.waitForURL(`${flow.suite.baseUrl}/ui/device/approved`);
    await expect(page.textContent('h1')).resolves.toBe('Device connected');

    const tokens = await polling;
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('openid email offline_access');
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens.claims()).toMatchObject({
      iss: flow.suite.baseUrl,
      aud: client.clientId,
      sub: user.id,
      email: user.email,
      auth_time: expect.any(Number),
    });
    // The device refreshes as any relying party does.
    const refreshed = await oidc.refreshTokenGrant(device, tokens.refresh_token!);
    expect(refreshed.access_token).toEqual(expect.any(String));
    await page.close();
  });

  it('tells the device access_denied when the signed-in user denies a code typed by hand', async () => {
    const authorization = await oidc.initiateDeviceAuthorization(device, { scope: 'openid' });
    const polling = oidc.pollDeviceAuthorizationGrant(device, authorization);
    const outcome = polling.then(
      () => 'tokens',
      (error: unknown) => error,
    );

    const page = await session.newPage();
    await page.goto(authorization.verification_uri);
    // Case and the dash do not matter (RFC 8628 section 6.1).
    await page.fill('input[name=user_code]', authorization.user_code.replace('-', '').toLowerCase());
    await page.getByRole('button', { name: 'Continue' }).click();
    // Already signed in: straight to the question.
    await page.waitForURL(`${flow.suite.baseUrl}/ui/device/consent?**`);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(`${flow.suite.baseUrl}/ui/device/denied`);
    await expect(page.textContent('h1')).resolves.toBe('Device not connected');

    const error = await outcome;
    expect(error).toBeInstanceOf(oidc.ResponseBodyError);
    expect(error).toMatchObject({
      error: 'access_denied',
      error_description: 'The user denied the request',
      status: 400,
    });
    await page.close();
  });
});
