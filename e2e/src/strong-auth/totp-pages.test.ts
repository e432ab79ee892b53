import { describe, expect, it } from 'vitest';
import {
  authorizationParameters,
  authorizeUrl,
  formOf,
  newAppClient,
  newPkce,
  newUser,
  redeemCode,
  REDIRECT_URI,
  submitConsent,
  submitLogin,
  useCodeFlow,
  verifyIdToken,
  type AppClient,
} from '../support/code-flow.js';
import { basicAuth } from '../support/tokens.js';
import {
  pageText,
  FormBrowser,
  type BrowserResponse,
  type HtmlForm,
} from '@authz/shared/testing/form-browser';
import { ACR_MFA, totpCode } from '../support/strong-auth-helpers.js';

// docs/interface.md 4.11 on the hosted pages: an authenticator app set up from /ui/account, the
// second step of /ui/login, and acr_values asking a password-only session to step up
// (docs/strong-authentication.md #2, #6, #14).
const flow = useCodeFlow();

const MFA = 'urn:authz:acr:mfa';
const hasCodeInput = (form: HtmlForm) => form.inputs.some((input) => input.name === 'code');

async function followToCallback(browser: FormBrowser, from: BrowserResponse): Promise<URL> {
  let response = from;
  for (let hop = 0; hop < 6; hop += 1) {
    const location = response.location!;
    if (location.startsWith(`${REDIRECT_URI}?`)) return new URL(location);
    if (location.includes('/ui/consent?')) {
      response = await submitConsent(browser, location, 'allow');
    } else {
      response = await browser.get(location);
    }
    expect([302, 303]).toContain(response.status);
  }
  throw new Error('no callback');
}

async function idTokenOf(client: AppClient, callback: URL, verifier: string) {
  const tokens = await redeemCode(flow, client, callback.searchParams.get('code')!, verifier);
  expect(tokens.status).toBe(200);
  return { tokens: tokens.body, claims: await verifyIdToken(flow, client, String(tokens.body.id_token)) };
}

async function introspect(client: AppClient, token: string) {
  const response = await fetch(`${flow.suite.baseUrl}/oauth/introspect`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...basicAuth(client.clientId, client.clientSecret!),
    },
    body: new URLSearchParams({ token }).toString(),
  });
  return (await response.json()) as Record<string, unknown>;
}

describe('authenticator app on the hosted pages', () => {
  it('sets one up from /ui/account, then acr_values makes the password-only session step up', async () => {
    const user = await newUser(flow, { verified: true });
    const client = await newAppClient(flow);
    const browser = new FormBrowser();
    const base = flow.suite.baseUrl;

    // A password-only sign-in.
    const signedIn = await submitLogin(browser, `${base}/ui/login?next=account`, user);
    expect(signedIn.status).toBe(303);

    const account = await browser.get(`${base}/ui/account`);
    expect(account.status).toBe(200);
    expect(account.text).toContain('Authenticator app');
    const setUp = formOf(account, `${base}/ui/account`, (form) =>
      form.buttons.some((b) => b.text === 'Set up authenticator app'),
    );
    const wrongPassword = await browser.post(setUp.action, [
      ...setUp.hidden,
      ['password', 'not-the-password-1'],
    ]);
    expect(wrongPassword.status).toBe(401);
    expect(pageText(wrongPassword.text)).toContain('The password is incorrect. Nothing was changed.');

    const enrolment = await browser.post(setUp.action, [...setUp.hidden, ['password', user.password]]);
    expect(enrolment.status).toBe(200);
    expect(enrolment.text).toMatch(/<img\s+src="data:image\/png;base64,[^"]+"/);
    const secret = /<code class="secret">([A-Z2-7 ]+)<\/code>/.exec(enrolment.text)![1]!.replaceAll(' ', '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const confirmForm = formOf(enrolment, setUp.action, hasCodeInput);
    const badConfirm = await browser.post(confirmForm.action, [
      ...confirmForm.hidden,
      ['code', totpCode(secret, 10)],
    ]);
    expect(badConfirm.status).toBe(400);
    const enrolmentCode = totpCode(secret);
    const confirmed = await browser.post(confirmForm.action, [
      ...confirmForm.hidden,
      ['code', enrolmentCode],
    ]);
    expect(confirmed.status).toBe(200);
    const codes = [...confirmed.text.matchAll(/<li><code>([a-z2-9]{5}-[a-z2-9]{5})<\/code><\/li>/g)].map(
      (m) => m[1],
    );
    expect(codes).toHaveLength(10);
    const after = await browser.get(`${base}/ui/account`);
    expect(pageText(after.text)).toContain('Recovery codes left: 10.');

    // The session is still the password-only one: prompt=none cannot step up.
    const silent = authorizationParameters({
      client,
      extra: [
        ['acr_values', MFA],
        ['prompt', 'none'],
      ],
    });
    const refused = await browser.get(authorizeUrl(flow.suite, silent));
    expect(refused.status).toBe(302);
    expect(Object.fromEntries(new URL(refused.location!).searchParams)).toEqual({
      error: 'interaction_required',
      error_description: 'The user must complete a second authentication step',
      state: 'af0ifjsldkj',
      iss: base,
    });

    // Without prompt=none the sign-in page asks for the missing factor.
    const pkce = newPkce();
    const stepUp = await browser.get(
      authorizeUrl(
        flow.suite,
        authorizationParameters({ client, pkce, extra: [['acr_values', `unknown:acr ${MFA}`]] }),
      ),
    );
    expect(stepUp.status).toBe(302);
    expect(stepUp.location).toMatch(new RegExp(`^${base}/ui/login\\?handle=`));
    const stepUpPage = await browser.get(stepUp.location!);
    expect(stepUpPage.status).toBe(200);
    expect(pageText(stepUpPage.text)).toContain('Photo app asks for two-step verification.');
    const stepUpForm = formOf(stepUpPage, stepUp.location!, hasCodeInput);
    expect(stepUpForm.inputs.some((input) => input.type === 'password')).toBe(false);
    // The enrolment spent its code, still inside the accepted window even if a period has begun
    // since (the code of the new period would be a fresh one).
    const wrong = await browser.post(stepUpForm.action, [...stepUpForm.hidden, ['code', enrolmentCode]]);
    expect(wrong.status).toBe(401);
    expect(pageText(wrong.text)).toContain('That code is not valid.');
    const forged = await browser.post(stepUpForm.action, [
      ...stepUpForm.hidden.filter(([name]) => name !== 'csrf_token'),
      ['csrf_token', 'x'.repeat(64)],
      ['code', totpCode(secret, 1)],
    ]);
    expect(forged.status).toBe(400);
    const stepped = await browser.post(stepUpForm.action, [
      ...stepUpForm.hidden,
      ['code', totpCode(secret, 1)],
    ]);
    expect(stepped.status).toBe(303);
    expect(stepped.location).toMatch(new RegExp(`^${base}/ui/resume/`));
    const callback = await followToCallback(browser, stepped);
    const { tokens, claims } = await idTokenOf(client, callback, pkce.verifier);
    expect(claims).toMatchObject({ acr: ACR_MFA, amr: ['pwd', 'otp', 'mfa'] });
    expect(Math.abs(Number(claims.auth_time) - Date.now() / 1000)).toBeLessThan(120);
    const introspected = await introspect(client, String(tokens.access_token));
    expect(introspected).toMatchObject({
      active: true,
      acr: ACR_MFA,
      amr: ['pwd', 'otp', 'mfa'],
      auth_time: claims.auth_time,
    });

    // The stepped-up session now answers acr_values without asking again.
    const again = newPkce();
    const direct = await browser.get(
      authorizeUrl(
        flow.suite,
        authorizationParameters({ client, pkce: again, extra: [['acr_values', MFA]] }),
      ),
    );
    expect(direct.status).toBe(302);
    expect(direct.location!.startsWith(`${REDIRECT_URI}?`)).toBe(true);
  });

  it('asks for the second step after the password at /ui/login, and refuses a wrong code', async () => {
    const user = await newUser(flow, { verified: true });
    const client = await newAppClient(flow);
    const base = flow.suite.baseUrl;
    // Enrolled from another browser.
    const other = new FormBrowser();
    await submitLogin(other, `${base}/ui/login?next=account`, user);
    const account = await other.get(`${base}/ui/account`);
    const setUp = formOf(account, `${base}/ui/account`, (form) =>
      form.buttons.some((b) => b.text === 'Set up authenticator app'),
    );
    const enrolment = await other.post(setUp.action, [...setUp.hidden, ['password', user.password]]);
    const secret = /<code class="secret">([A-Z2-7 ]+)<\/code>/.exec(enrolment.text)![1]!.replaceAll(' ', '');
    const confirmForm = formOf(enrolment, setUp.action, hasCodeInput);
    const confirmed = await other.post(confirmForm.action, [
      ...confirmForm.hidden,
      ['code', totpCode(secret)],
    ]);
    const recovery = /<li><code>([a-z2-9-]+)<\/code><\/li>/.exec(confirmed.text)![1]!;

    const browser = new FormBrowser();
    const pkce = newPkce();
    const start = await browser.get(authorizeUrl(flow.suite, authorizationParameters({ client, pkce })));
    const password = await submitLogin(browser, start.location!, user);
    // No session yet: the second step's form, carrying the mfa_token.
    expect(password.status).toBe(200);
    expect(password.setCookies.filter((cookie) => cookie.startsWith('__Host-service_session='))).toEqual([]);
    const secondStep = formOf(password, start.location!, hasCodeInput);
    expect(secondStep.action).toBe(`${base}/ui/login/mfa`);
    expect(secondStep.hidden.map(([name]) => name).sort()).toEqual(['csrf_token', 'handle', 'mfa_token']);

    const wrong = await browser.post(secondStep.action, [
      ...secondStep.hidden,
      ['code', totpCode(secret, 10)],
    ]);
    expect(wrong.status).toBe(401);
    expect(pageText(wrong.text)).toContain('That code is not valid.');
    const done = await browser.post(secondStep.action, [...secondStep.hidden, ['code', recovery]]);
    expect(done.status).toBe(303);
    expect(done.location).toMatch(new RegExp(`^${base}/ui/resume/`));
    expect(done.setCookies.some((cookie) => cookie.startsWith('__Host-service_session='))).toBe(true);
    const callback = await followToCallback(browser, done);
    const { claims } = await idTokenOf(client, callback, pkce.verifier);
    expect(claims).toMatchObject({ acr: ACR_MFA, amr: ['pwd', 'otp', 'mfa'] });

    // The recovery code worked once.
    const later = new FormBrowser();
    const start2 = await later.get(authorizeUrl(flow.suite, authorizationParameters({ client })));
    const password2 = await submitLogin(later, start2.location!, user);
    const secondStep2 = formOf(password2, start2.location!, hasCodeInput);
    const reused = await later.post(secondStep2.action, [...secondStep2.hidden, ['code', recovery]]);
    expect(reused.status).toBe(401);
  });
});
