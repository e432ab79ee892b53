import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { querySql, type SignedUpUser } from '../support/accounts.js';
import { addVirtualAuthenticator, usePasskeyScene } from '../support/passkey-scene.js';
import type { SignInResult } from '../support/relying-party.js';
import { ACR_MFA } from '../support/strong-auth-helpers.js';

// docs/interface.md 4.11, docs/strong-authentication.md #21: a password-only session steps up
// with the user's passkey when an authorization asks for acr urn:authz:acr:mfa, in Chromium with
// a CDP virtual authenticator. Chromium refuses an IP address as RP ID, so this suite's issuer
// is http://localhost:<port> (a secure context) rather than 127.0.0.1.
const scene = await usePasskeyScene({
  clientName: 'Step-up test app',
  users: { owner: 'step-up-owner', other: 'step-up-other' },
});
const { context, issuer } = scene;

const REFUSED = 'That passkey could not confirm it is you. Try again.';

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

/** The authenticator of `page` answers `optionsJSON` (WebAuthn request options): the assertion as JSON. */
function authenticateOn(page: Page, optionsJSON: unknown): Promise<string> {
  return page.evaluate(async (optionsJSON) => {
    // @simplewebauthn/browser's global, loaded by the account page (docs/strong-authentication.md #20).
    const webauthn = (
      globalThis as unknown as {
        SimpleWebAuthnBrowser: { startAuthentication(input: { optionsJSON: unknown }): Promise<unknown> };
      }
    ).SimpleWebAuthnBrowser;
    return JSON.stringify(await webauthn.startAuthentication({ optionsJSON }));
  }, optionsJSON);
}

describe('step-up with a passkey', () => {
  let ownerContext: BrowserContext;
  let ownerPage: Page;
  let otherContext: BrowserContext;
  let otherPage: Page;
  /** A pending authorization's handle, for the refusals (any well-formed handle will do). */
  let pendingHandle = '';

  beforeAll(async () => {
    ownerContext = await scene.browser.newContext();
    ownerPage = await ownerContext.newPage();
    await addVirtualAuthenticator(ownerPage);
    otherContext = await scene.browser.newContext();
    otherPage = await otherContext.newPage();
  });

  afterAll(async () => {
    await ownerContext?.close();
    await otherContext?.close();
  });

  it('steps a password session up with the passkey; the ID token says acr mfa, amr pwd hwk', async () => {
    const page = ownerPage;
    await scene.passwordSignIn(page, scene.users.owner);
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
    await page.goto(`${scene.party.origin}/start?acr_values=${encodeURIComponent(ACR_MFA)}`);
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
    await page.waitForURL(`${scene.party.origin}/callback**`);
    const result = JSON.parse((await page.textContent('#result')) ?? 'null') as SignInResult;
    expect(result.sub).toBe(scene.users.owner.userId);
    expect(result.idTokenClaims).toMatchObject({ iss: issuer, aud: scene.clientId, acr: ACR_MFA });
    expect(result.idTokenClaims.amr).toEqual(['pwd', 'hwk', 'user', 'mfa']);

    const events = await auditOf(scene.users.owner, ['session_stepped_up', 'second_factor_failure']);
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
    await scene.passwordSignIn(page, scene.users.other);
    const stepUpPage = page.waitForResponse((response) =>
      response.url().startsWith(`${issuer}/ui/login?handle=`),
    );
    await page.goto(`${scene.party.origin}/start?acr_values=${encodeURIComponent(ACR_MFA)}`);
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
    const assertion = await authenticateOn(ownerPage, optionsJson);

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

    await expect(
      auditOf(scene.users.other, ['session_stepped_up', 'second_factor_failure']),
    ).resolves.toEqual([
      {
        type: 'second_factor_failure',
        details: { stepUp: true, passkey: true, reason: 'credential of another user' },
      },
    ]);
    const ownerEvents = await auditOf(scene.users.owner, ['session_stepped_up', 'second_factor_failure']);
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
    const assertion = await authenticateOn(ownerPage, optionsJson);
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
    const ownerEvents = await auditOf(scene.users.owner, ['second_factor_failure']);
    expect(ownerEvents.at(-1)?.details).toEqual({
      stepUp: true,
      passkey: true,
      reason: 'assertion does not verify',
    });
  });
});
