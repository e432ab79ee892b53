import { createHash, randomBytes } from 'node:crypto';
import {
  FormBrowser,
  parseForms,
  type BrowserResponse,
  type HtmlForm,
} from '@authz/shared/testing/form-browser';
import { basicAuthorization, expectStatus, postJson, type Developer } from './fixtures.js';

/** Never followed: the code is read from the redirect's Location. */
const REDIRECT_URI = 'https://app.example/callback';
/** What the userinfo scenario's token is granted: every claim UserInfo may answer (interface.md 4.3). */
export const USER_SCOPE = 'openid profile email';

/** A user's access token for UserInfo, and whether the user's address was verified first. */
export interface UserToken {
  accessToken: string;
  scope: string;
  emailVerified: boolean;
}

/**
 * The verification link of the mail sent to an address, as the launcher's mail sink logs it;
 * undefined when none came in time.
 */
export type VerificationLink = (email: string) => Promise<string | undefined>;

/**
 * What a person and a web app do before the app calls UserInfo: the user registers and
 * verifies the address (so UserInfo answers the email claims too), the developer creates a
 * confidential web client, and the authorization code flow with PKCE (RFC 7636) runs through
 * the gateway's hosted sign-in and consent pages; the code is redeemed at the token endpoint.
 */
export async function obtainUserToken(
  baseUrl: string,
  developer: Developer,
  verificationLink: VerificationLink,
): Promise<UserToken> {
  const email = `bench-user-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const password = `${randomBytes(9).toString('base64url')}-Bench-7`;
  await expectStatus(
    await postJson(baseUrl, '/auth/register', { email, password }),
    201,
    'POST /auth/register',
  );
  const emailVerified = await verifyEmail(baseUrl, await verificationLink(email));
  const created = await postJson(
    baseUrl,
    '/api/clients/',
    {
      name: 'Benchmark web app',
      redirectUris: [REDIRECT_URI],
      grantTypes: ['authorization_code'],
      responseTypes: ['code'],
      scopes: USER_SCOPE.split(' '),
      tokenEndpointAuthMethod: 'client_secret_basic',
    },
    developer.token,
  );
  const client = (await expectStatus(created, 201, 'POST /api/clients/')) as {
    clientId: string;
    clientSecret: string;
  };
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(12).toString('base64url');
  const authorize = new URL('/oauth/authorize', baseUrl);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: REDIRECT_URI,
    scope: USER_SCOPE,
    state,
    nonce: randomBytes(12).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const callback = await throughHostedPages(new FormBrowser(), baseUrl, authorize.href, { email, password });
  if (callback.searchParams.get('state') !== state)
    throw new Error(`the authorization came back without its state: ${callback.href}`);
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`the authorization came back without a code: ${callback.href}`);
  const redeemed = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: basicAuthorization(client.clientId, client.clientSecret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }).toString(),
  });
  const tokens = (await expectStatus(redeemed, 200, 'POST /oauth/token (authorization_code)')) as {
    access_token: string;
    scope?: string;
  };
  return { accessToken: tokens.access_token, scope: tokens.scope ?? '', emailVerified };
}

/** POST /auth/verify with the link's token, as the verification page's button does. */
async function verifyEmail(baseUrl: string, link: string | undefined): Promise<boolean> {
  const token = link ? new URL(link).searchParams.get('token') : null;
  if (!token) return false;
  await expectStatus(await postJson(baseUrl, '/auth/verify', { token }), 200, 'POST /auth/verify');
  return true;
}

/**
 * authorize -> login page -> POST login -> resume -> consent page -> Allow -> the redirect URI,
 * each hop checked; returns the redirect back to the client.
 */
async function throughHostedPages(
  browser: FormBrowser,
  baseUrl: string,
  authorizeUrl: string,
  user: { email: string; password: string },
): Promise<URL> {
  let location = redirect(await browser.get(authorizeUrl), 'GET /oauth/authorize');
  for (let hop = 0; !location.startsWith(`${REDIRECT_URI}?`); hop += 1) {
    if (hop > 3) throw new Error(`the authorization did not come back to the client: ${location}`);
    const path = new URL(location).pathname;
    if (location.startsWith(`${baseUrl}/ui/login?`)) {
      const form = await formOf(browser, location, (candidate) =>
        candidate.inputs.some(({ type }) => type === 'password'),
      );
      const fields: [string, string][] = [...form.hidden, ['email', user.email], ['password', user.password]];
      const signedIn = redirect(await browser.post(form.action, fields), `POST ${path}`);
      location = redirect(await browser.get(signedIn), `GET ${new URL(signedIn).pathname}`);
    } else if (location.startsWith(`${baseUrl}/ui/consent?`)) {
      const isConsent = (candidate: HtmlForm) =>
        candidate.buttons.some(({ name, value }) => name === 'decision' && value === 'allow');
      const form = await formOf(browser, location, isConsent);
      location = redirect(
        await browser.post(form.action, [...form.hidden, ['decision', 'allow']]),
        `POST ${path}`,
      );
    } else {
      throw new Error(`unexpected hop of the authorization: ${location}`);
    }
  }
  return new URL(location);
}

async function formOf(
  browser: FormBrowser,
  url: string,
  predicate: (form: HtmlForm) => boolean,
): Promise<HtmlForm> {
  const page = await browser.get(url);
  const form = page.status === 200 ? parseForms(page.text, url).find(predicate) : undefined;
  if (!form)
    throw new Error(`GET ${new URL(url).pathname} answered ${page.status} without the expected form`);
  return form;
}

function redirect(response: BrowserResponse, what: string): string {
  if (![302, 303].includes(response.status) || !response.location)
    throw new Error(`${what} answered ${response.status}, not a redirect: ${response.text.slice(0, 300)}`);
  return response.location;
}
