import { randomBytes, createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCall, querySql, signIn, signUp } from '../support/accounts.js';
import { launchChromium } from '../support/chromium.js';
import { basicAuth } from '../support/tokens.js';
import { ACR_MFA, enrolTotp, totpCode } from '../support/strong-auth-helpers.js';
import { providerEntry, useFederation } from './federation-setup.js';
import { passUpstream } from './federation-pages.js';

// Upstream identity providers (interface.md 4.14) meet second factors (interface.md 4.11): a
// federated sign-in counts as single-factor (docs/federation.md #11), so an authorization
// request asking acr_values=urn:authz:acr:mfa makes it step up with the account's
// authenticator app before the client gets a code; the ID token then says mfa.
const context = useFederation(({ real }) => [
  providerEntry(real, { id: 'upstream', displayName: 'Upstream ID', trustEmail: true, createAccounts: true }),
]);

const REDIRECT_URI = 'https://app.example/callback';
let browser: Browser;
let client: { clientId: string; clientSecret: string };

beforeAll(async () => {
  const { suite } = context;
  const developer = await signIn(suite, await signUp(suite, 'rp-owner'));
  const created = await accountCall<{ clientId: string; clientSecret: string }>(
    suite,
    'POST',
    '/api/clients/',
    {
      token: developer.accessToken,
      body: {
        name: 'Step-up app',
        redirectUris: [REDIRECT_URI],
        scopes: ['openid', 'email'],
        tokenEndpointAuthMethod: 'client_secret_basic',
      },
    },
  );
  expect(created.status).toBe(201);
  client = created.body;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe('an account with an authenticator app signing in through an upstream', () => {
  it('steps up with the app when the client asks acr_values=urn:authz:acr:mfa', async () => {
    const { suite } = context;
    const account = await signUp(suite, 'federated-mfa');
    await querySql(context.databaseUrl, `UPDATE identity.users SET email_verified = true WHERE id = $1`, [
      account.userId,
    ]);
    const { accessToken } = await signIn(suite, account);
    const { secret } = await enrolTotp(suite, accessToken, account.password);
    const login = `mfa-${Date.now()}`;
    context.upstreams.real.users.set(login, { email: account.email, email_verified: true });

    const verifier = randomBytes(32).toString('base64url');
    const authorize = `${suite.baseUrl}/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'openid email',
      state: 'step-up-state',
      nonce: 'step-up-nonce',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      acr_values: ACR_MFA,
    })}`;

    const session = await browser.newContext();
    const page = await session.newPage();
    // The app's redirect URI resolves nowhere: the browser's request to it is the callback.
    const arrived = page.waitForRequest((request) => request.url().startsWith(`${REDIRECT_URI}?`));
    await page.goto(authorize);
    await page.waitForURL(`${suite.baseUrl}/ui/login?**`);
    await page.getByRole('link', { name: 'Continue with Upstream ID' }).click();
    await passUpstream(page, context.upstreams.real.issuer, login);
    await page.waitForLoadState('domcontentloaded');

    // Back at the suite, the single-factor federated session is asked for the app's code.
    expect(new URL(page.url()).pathname).toBe('/ui/login');
    expect(await page.locator('input[name=code]').count()).toBe(1);
    await page.fill('input[name=code]', totpCode(secret, 1));
    await Promise.all([
      page.waitForURL((url) => url.pathname !== '/ui/login'),
      page.locator('form:has(input[name=code]) button').first().click(),
    ]);
    if (new URL(page.url()).pathname === '/ui/consent') {
      await page.getByRole('button', { name: 'Allow' }).click();
    }
    const callback = new URL((await arrived).url());
    expect(callback.searchParams.get('state')).toBe('step-up-state');
    await session.close();

    const tokens = await fetch(`${suite.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...basicAuth(client.clientId, client.clientSecret),
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
      }),
    });
    expect(tokens.status).toBe(200);
    const { id_token } = (await tokens.json()) as { id_token: string };
    const claims = decodeJwt(id_token);
    expect(claims).toMatchObject({ sub: account.userId, acr: ACR_MFA });
    // The upstream's own methods are not taken over (docs/federation.md #11): only the step-up's.
    expect(claims.amr).toEqual(['otp', 'mfa']);
  });
});
