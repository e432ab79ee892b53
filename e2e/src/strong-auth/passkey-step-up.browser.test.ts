import { spareTestPort } from '@authz/shared/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { querySql, signIn, signUp, type SignedUpUser } from '../support/accounts.js';
import { launchChromium } from '../support/chromium.js';
import { call } from '../support/clients.js';
import { RelyingParty, type SignInResult } from '../support/relying-party.js';
import { ACR_MFA } from '../support/strong-auth-helpers.js';
import { useSuite } from '../support/use-suite.js';

// docs/interface.md 4.11, docs/strong-authentication.md #21: a password-only session steps up
// with the user's passkey when an authorization asks for acr urn:authz:acr:mfa, in Chromium with
// a CDP virtual authenticator. Chromium refuses an IP address as RP ID, so this suite's issuer
// is http://localhost:<port> (a secure context) rather than 127.0.0.1.
const port = await spareTestPort();
const issuer = `http://localhost:${port}`;
const context = useSuite({
  port,
  serviceEnv: { JWT_ISSUER: issuer },
  gatewayEnv: { JWT_ISSUER: issuer, LOGIN_RATE_LIMIT: '1000' },
});

const REFUSED = 'That passkey could not confirm it is you. Try again.';

let browser: Browser;
let party: RelyingParty;
let owner: SignedUpUser;
let other: SignedUpUser;
let clientId: string;

beforeAll(async () => {
  const { suite } = context;
  party = await RelyingParty.start();
  owner = await signUp(suite, 'step-up-owner');
  other = await signUp(suite, 'step-up-other');
  const { accessToken } = await signIn(suite, owner);
  const created = await call<{ clientId: string; clientSecret: string }>(suite, 'POST', '/api/clients/', {
    token: accessToken,
    body: {
      name: 'Step-up test app',
      redirectUris: [party.redirectUri],
      scopes: ['openid', 'email'],
      tokenEndpointAuthMethod: 'client_secret_basic',
    },
  });
  clientId = created.body.clientId;
  await party.configure(issuer, clientId, created.body.clientSecret);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await party?.close();
});

async function withAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

async function passwordSignIn(page: Page, user: SignedUpUser): Promise<void> {
  await page.goto(`${issuer}/ui/login?next=account`);
  await page.fill('input[type=email][name=email]', user.email);
  await page.fill('input[type=password][name=password]', user.password);
  await page.click('form [type=submit]');
  await page.waitForURL(`${issuer}/ui/account`);
}

/** The audit events of `user` of the given types, oldest first, with their details. */
async function auditOf(user: SignedUpUser, types: string[]): Promise<{ type: string; details: unknown }[]> {
  return querySql<{ type: string; details: unknown }>(
    context.environment.databaseUrl,
    `SELECT type, details FROM identity.audit_events WHERE actor_user_id = $1 AND type = ANY($2) ORDER BY occurred_at, id`,
    [user.userId, types],
  );
}

/** Posts form fields from the page (its cookies, same origin), as the step-up script does. */
function postFrom(page: Page, path: string, fields: Record<string, string>) {
  return page.evaluate(
    async ({ path, fields }) => {
      const response = await fetch(path, {
        method: 'POST',
        credentials: 'same-origin',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
      return { status: response.status, body: await response.text() };
    },
    { path, fields },
  );
}

describe('step-up with a passkey', () => {
  let ownerContext: BrowserContext;
  let ownerPage: Page;
  let otherContext: BrowserContext;
  let otherPage: Page;
  /** A pending authorization's handle, for the refusals (any well-formed handle will do). */
  let pendingHandle = '';

  beforeAll(async () => {
    ownerContext = await browser.newContext();
    ownerPage = await ownerContext.newPage();
    await withAuthenticator(ownerPage);
    otherContext = await browser.newContext();
    otherPage = await otherContext.newPage();
  });

  afterAll(async () => {
    await ownerContext?.close();
    await otherContext?.close();
  });

  it('steps a password session up with the passkey; the ID token says acr mfa, amr pwd hwk', async () => {
    const page = ownerPage;
    await passwordSignIn(page, owner);
    await page.fill('#passkey-name', 'Laptop');
    const registered = page.waitForResponse(
      (response) =>
        response.url() === `${issuer}/ui/account/passkeys` && response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    expect((await registered).status()).toBe(303);
    await page.waitForURL(`${issuer}/ui/account`);

    const stepUpPage = page.waitForResponse((response) =>
      response.url().startsWith(`${issuer}/ui/login?handle=`),
    );
    await page.goto(`${party.origin}/start?acr_values=${encodeURIComponent(ACR_MFA)}`);
    const shown = await stepUpPage;
    expect(shown.status()).toBe(200);
    expect(shown.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(shown.headers()['content-security-policy']).toContain("connect-src 'self'");
    await expect(page.textContent('h1')).resolves.toBe('Confirm it is you');
    // No authenticator app: no code form, only the passkey.
    await expect(page.locator('input[name=code]').count()).resolves.toBe(0);

    const stepped = page.waitForResponse(
      (response) =>
        response.url() === `${issuer}/ui/login/step-up/passkey` && response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    expect((await stepped).status()).toBe(303);
    await page.waitForURL(`${issuer}/ui/consent?**`);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${party.origin}/callback**`);
    const result = JSON.parse((await page.textContent('#result')) ?? 'null') as SignInResult;
    expect(result.sub).toBe(owner.userId);
    expect(result.idTokenClaims).toMatchObject({ iss: issuer, aud: clientId, acr: ACR_MFA });
    expect(result.idTokenClaims.amr).toEqual(['pwd', 'hwk', 'user', 'mfa']);

    const events = await auditOf(owner, ['session_stepped_up', 'second_factor_failure']);
    expect(events).toEqual([
      {
        type: 'session_stepped_up',
        details: {
          amr: ['pwd', 'hwk', 'user', 'mfa'],
          secondFactor: 'passkey',
          passkeyId: expect.any(String),
        },
      },
    ]);
  });

  it('without a second factor the page says how to add one', async () => {
    const page = otherPage;
    await passwordSignIn(page, other);
    const stepUpPage = page.waitForResponse((response) =>
      response.url().startsWith(`${issuer}/ui/login?handle=`),
    );
    await page.goto(`${party.origin}/start?acr_values=${encodeURIComponent(ACR_MFA)}`);
    expect((await stepUpPage).status()).toBe(403);
    await expect(page.textContent('h1')).resolves.toBe('Two-step verification needed');
    await expect(page.getByRole('button', { name: 'Use a passkey' }).count()).resolves.toBe(0);
  });

  it("refuses the owner's passkey on another user's challenge, and a challenge used once", async () => {
    // The other user's session asks for step-up options (its challenge is bound to it).
    const handle = new URL(otherPage.url()).searchParams.get('handle') ?? '';
    pendingHandle = handle;
    await otherPage.goto(`${issuer}/ui/account`);
    const otherCsrf = await otherPage.locator('input[name=csrf_token]').first().inputValue();
    const options = await postFrom(otherPage, '/ui/login/step-up/passkey/options', { csrf_token: otherCsrf });
    expect(options.status).toBe(200);
    const optionsJson = JSON.parse(options.body) as { challenge: string; allowCredentials: unknown[] };
    expect(optionsJson.allowCredentials).toEqual([]);

    // The owner's authenticator signs that challenge with the owner's passkey.
    await ownerPage.goto(`${issuer}/ui/account`);
    const assertion = await ownerPage.evaluate(async (optionsJSON) => {
      // @simplewebauthn/browser's global, loaded by the account page (docs/strong-authentication.md #20).
      const webauthn = (
        globalThis as unknown as {
          SimpleWebAuthnBrowser: { startAuthentication(input: { optionsJSON: unknown }): Promise<unknown> };
        }
      ).SimpleWebAuthnBrowser;
      return JSON.stringify(await webauthn.startAuthentication({ optionsJSON }));
    }, optionsJson);

    const refused = await postFrom(otherPage, '/ui/login/step-up/passkey', {
      csrf_token: otherCsrf,
      handle,
      response: assertion,
    });
    expect(refused.status).toBe(401);
    expect(refused.body).toContain(REFUSED);

    // The same assertion from the owner's own session: the challenge is gone (and was not its own).
    const ownerCsrf = await ownerPage.locator('input[name=csrf_token]').first().inputValue();
    const reused = await postFrom(ownerPage, '/ui/login/step-up/passkey', {
      csrf_token: ownerCsrf,
      handle,
      response: assertion,
    });
    expect(reused.status).toBe(401);
    expect(reused.body).toContain(REFUSED);

    await expect(auditOf(other, ['session_stepped_up', 'second_factor_failure'])).resolves.toEqual([
      {
        type: 'second_factor_failure',
        details: { stepUp: true, passkey: true, reason: 'credential of another user' },
      },
    ]);
    const ownerEvents = await auditOf(owner, ['session_stepped_up', 'second_factor_failure']);
    expect(ownerEvents.map((event) => event.type)).toEqual(['session_stepped_up', 'second_factor_failure']);
    expect(ownerEvents[1]?.details).toEqual({ stepUp: true, passkey: true, reason: 'unknown challenge' });
  });

  it('refuses an assertion whose signature was altered', async () => {
    await ownerPage.goto(`${issuer}/ui/account`);
    const csrf = await ownerPage.locator('input[name=csrf_token]').first().inputValue();
    const options = await postFrom(ownerPage, '/ui/login/step-up/passkey/options', { csrf_token: csrf });
    expect(options.status).toBe(200);
    const optionsJson = JSON.parse(options.body) as { allowCredentials: { id: string }[] };
    expect(optionsJson.allowCredentials).toHaveLength(1);
    const assertion = await ownerPage.evaluate(async (optionsJSON) => {
      const webauthn = (
        globalThis as unknown as {
          SimpleWebAuthnBrowser: { startAuthentication(input: { optionsJSON: unknown }): Promise<unknown> };
        }
      ).SimpleWebAuthnBrowser;
      return JSON.stringify(await webauthn.startAuthentication({ optionsJSON }));
    }, optionsJson);
    const parsed = JSON.parse(assertion) as { response: { signature: string } };
    const signature = Buffer.from(parsed.response.signature, 'base64url');
    signature[signature.length - 1]! ^= 0xff;
    parsed.response.signature = signature.toString('base64url');

    const handle = pendingHandle;
    const refused = await postFrom(ownerPage, '/ui/login/step-up/passkey', {
      csrf_token: csrf,
      handle,
      response: JSON.stringify(parsed),
    });
    expect(refused.status).toBe(401);
    expect(refused.body).toContain(REFUSED);
    const ownerEvents = await auditOf(owner, ['second_factor_failure']);
    expect(ownerEvents.at(-1)?.details).toEqual({
      stepUp: true,
      passkey: true,
      reason: 'assertion does not verify',
    });
  });
});
