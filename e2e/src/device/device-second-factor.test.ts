import { SESSION_COOKIE } from '@authz/shared/protocol';
import { describe, expect, it } from 'vitest';
import {
  formOf,
  newUser,
  submitConsent,
  submitLogin,
  useCodeFlow,
  verifyIdToken,
} from '../support/code-flow.js';
import { signInTokens } from '../support/admin-scenes.js';
import { pageText, FormBrowser, type HtmlForm } from '@authz/shared/testing/form-browser';
import { verifyAtJwks } from '../support/tokens.js';
import { ACR_MFA, enrolTotp, totpCode } from '../support/strong-auth-helpers.js';
import { enterUserCode, newDeviceClient, pollDevice, startDevice } from './device-scene.js';

/**
 * The device authorization grant (interface.md 4.13) meets second factors (interface.md 4.11):
 * an account with an authenticator app signs in on /ui/device's sign-in page with both steps
 * before the device's consent screen, and the device's tokens say so in acr and amr
 * (docs/strong-authentication.md #5, #13).
 */
const flow = useCodeFlow({ DEVICE_CODE_ENTRY_RATE_LIMIT: '1000' });

const hasCodeInput = (form: HtmlForm) => form.inputs.some((input) => input.name === 'code');

describe('the device grant for an account with an authenticator app', () => {
  it('asks for the second step before the device consent; the ID token carries otp and the mfa acr', async () => {
    const user = await newUser(flow, { verified: true });
    const { accessToken } = await signInTokens(flow.suite, user.email, user.password);
    const { secret } = await enrolTotp(flow.suite, accessToken, user.password);
    const client = await newDeviceClient(flow);
    const { device_code, user_code } = await startDevice(flow, client, 'openid email');
    const base = flow.suite.baseUrl;

    const browser = new FormBrowser();
    const entered = await enterUserCode(flow, browser, user_code);
    expect(entered.status).toBe(303);
    const resumed = await browser.get(entered.location!);
    expect(resumed.status).toBe(302);
    const loginUrl = resumed.location!;
    expect(loginUrl).toMatch(new RegExp(`^${base}/ui/login\\?`));

    // The password alone opens no session: the second step's form.
    const password = await submitLogin(browser, loginUrl, user);
    expect(password.status).toBe(200);
    expect(browser.jar.get(SESSION_COOKIE)).toBeUndefined();
    const secondStep = formOf(password, loginUrl, hasCodeInput);
    expect(secondStep.action).toBe(`${base}/ui/login/mfa`);

    // Skipping it leads back to the sign-in, never to the consent screen.
    const skipped = await browser.get(entered.location!);
    expect(skipped.status).toBe(302);
    expect(skipped.location).toMatch(new RegExp(`^${base}/ui/login\\?`));

    const wrong = await browser.post(secondStep.action, [
      ...secondStep.hidden,
      ['code', totpCode(secret, 10)],
    ]);
    expect(wrong.status).toBe(401);
    expect(pageText(wrong.text)).toContain('That code is not valid.');
    expect((await pollDevice(flow, client, device_code)).body).toMatchObject({
      error: 'authorization_pending',
    });

    // The enrolment spent the current code: the next one.
    const stepped = await browser.post(secondStep.action, [
      ...secondStep.hidden,
      ['code', totpCode(secret, 1)],
    ]);
    expect(stepped.status).toBe(303);
    expect(stepped.location).toBe(entered.location);
    const toConsent = await browser.get(stepped.location!);
    expect(toConsent.status).toBe(302);
    expect(toConsent.location).toMatch(new RegExp(`^${base}/ui/device/consent\\?handle=[A-Za-z0-9_-]{43}$`));
    const decided = await submitConsent(browser, toConsent.location!, 'allow');
    expect(decided.status).toBe(303);
    expect(decided.location).toBe(`${base}/ui/device/approved`);

    const tokens = await pollDevice(flow, client, device_code);
    expect(tokens.status).toBe(200);
    const idToken = await verifyIdToken(flow, client, tokens.body.id_token as string);
    expect(idToken).toMatchObject({ sub: user.id, aud: client.clientId, acr: ACR_MFA });
    expect(idToken.amr).toEqual(['pwd', 'otp', 'mfa']);
    const { payload: access } = await verifyAtJwks(flow.suite, tokens.body.access_token as string);
    expect(access).toMatchObject({ sub: user.id, acr: ACR_MFA, amr: ['pwd', 'otp', 'mfa'] });
  });
});
