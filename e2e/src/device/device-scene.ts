import { expect } from 'vitest';
import {
  clientCredentials,
  formOf,
  newAppClient,
  submitConsent,
  submitLogin,
  type AppClient,
  type CodeFlowContext,
  type TestUser,
} from '../support/code-flow.js';
import { requestToken, type TokenResponse } from '../support/tokens.js';
import type { BrowserResponse, FormBrowser } from '@authz/shared/testing/form-browser';

// The device authorization grant (interface.md 4.13, RFC 8628) by hand: a device client, its
// device authorization request, its polls, and the user's way through the /ui/device pages.

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
export const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;
export const WRONG_USER_CODE_MESSAGE =
  'That code is not valid. Check the code shown on your device and try again.';

/** A public device client (a CLI or a TV app): the device grant and refresh tokens, no redirect URI. */
export function newDeviceClient(
  flow: CodeFlowContext,
  overrides: Record<string, unknown> = {},
): Promise<AppClient> {
  return newAppClient(flow, {
    name: 'Living room TV',
    redirectUris: [],
    grantTypes: [DEVICE_GRANT, 'refresh_token'],
    tokenEndpointAuthMethod: 'none',
    ...overrides,
  });
}

export interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** POST /oauth/device_authorization with the client's own credentials and `fields`. */
export async function requestDeviceAuthorization(
  flow: CodeFlowContext,
  client: AppClient,
  fields: [string, string][] = [['scope', 'openid email']],
): Promise<TokenResponse> {
  const credentials = clientCredentials(client);
  const response = await fetch(`${flow.suite.baseUrl}/oauth/device_authorization`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...credentials.headers },
    body: new URLSearchParams([...fields, ...credentials.fields]).toString(),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** A device authorization that must succeed. */
export async function startDevice(
  flow: CodeFlowContext,
  client: AppClient,
  scope = 'openid email',
): Promise<DeviceAuthorization> {
  const started = await requestDeviceAuthorization(flow, client, [['scope', scope]]);
  expect(started.status).toBe(200);
  return started.body as unknown as DeviceAuthorization;
}

/** One poll of the token endpoint (RFC 8628 section 3.4). */
export function pollDevice(
  flow: CodeFlowContext,
  client: AppClient,
  deviceCode: string,
): Promise<TokenResponse> {
  const { fields, headers } = clientCredentials(client);
  return requestToken(
    flow.suite,
    [['grant_type', DEVICE_GRANT], ['device_code', deviceCode], ...fields],
    headers,
  );
}

const isCodeForm = (form: { inputs: { name: string }[] }) =>
  form.inputs.some((input) => input.name === 'user_code');

/** GET /ui/device (optionally with ?user_code=) and submit `typed` in its form. */
export async function enterUserCode(
  flow: CodeFlowContext,
  browser: FormBrowser,
  typed: string,
  headers: Record<string, string> = {},
): Promise<BrowserResponse> {
  const url = `${flow.suite.baseUrl}/ui/device`;
  const page = await browser.get(url);
  expect(page.status).toBe(200);
  const form = formOf(page, url, isCodeForm);
  return browser.post(form.action, [...form.hidden, ['user_code', typed]], headers);
}

/**
 * The user's whole way: code entry, sign-in (when the browser has no session), the device's
 * consent screen and the decision; answers the page the decision lands on.
 */
export async function decideOnPages(
  flow: CodeFlowContext,
  browser: FormBrowser,
  user: Pick<TestUser, 'email' | 'password'>,
  userCode: string,
  decision: 'allow' | 'deny',
): Promise<BrowserResponse> {
  const base = flow.suite.baseUrl;
  const entered = await enterUserCode(flow, browser, userCode);
  expect(entered.status).toBe(303);
  expect(entered.location).toMatch(new RegExp(`^${base}/ui/resume/[A-Za-z0-9_-]{43}$`));
  let resumed = await browser.get(entered.location!);
  expect(resumed.status).toBe(302);
  if (resumed.location!.startsWith(`${base}/ui/login?`)) {
    const signedIn = await submitLogin(browser, resumed.location!, user);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(entered.location);
    resumed = await browser.get(signedIn.location!);
    expect(resumed.status).toBe(302);
  }
  expect(resumed.location).toMatch(new RegExp(`^${base}/ui/device/consent\\?handle=[A-Za-z0-9_-]{43}$`));
  const decided = await submitConsent(browser, resumed.location!, decision);
  expect(decided.status).toBe(303);
  expect(decided.location).toBe(`${base}/ui/device/${decision === 'allow' ? 'approved' : 'denied'}`);
  return browser.get(decided.location!);
}
