import { spareTestPort } from '@authz/shared/testing';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { signIn, signUp, type SignedUpUser } from './accounts.js';
import { launchChromium } from './chromium.js';
import { call } from './clients.js';
import { RelyingParty } from './relying-party.js';
import { useSuite, type SuiteContext } from './use-suite.js';

/** The scene of the passkey browser tests (docs/interface.md 4.11, docs/strong-authentication.md). */
export interface PasskeyScene<Name extends string> {
  readonly context: SuiteContext;
  /** http://localhost:<port>: Chromium refuses an IP address as RP ID, and localhost is a secure context. */
  readonly issuer: string;
  /** Valid inside tests (after this file's beforeAll), as are the fields below. */
  readonly browser: Browser;
  readonly party: RelyingParty;
  readonly clientId: string;
  readonly users: Readonly<Record<Name, SignedUpUser>>;
  /** Signs `user` in with their password on the sign-in page and waits for the account page. */
  passwordSignIn(page: Page, user: SignedUpUser): Promise<void>;
}

/**
 * Call once at the top of a test file: the suite on a localhost issuer, the accounts of `users`
 * (name: sign-up prefix) signed up in that order, a relying party whose client the first of
 * them registers as `clientName`, and Chromium.
 */
export async function usePasskeyScene<Name extends string>(options: {
  clientName: string;
  users: Record<Name, string>;
}): Promise<PasskeyScene<Name>> {
  const port = await spareTestPort();
  const issuer = `http://localhost:${port}`;
  const context = useSuite({
    port,
    serviceEnv: { JWT_ISSUER: issuer },
    gatewayEnv: { JWT_ISSUER: issuer, LOGIN_RATE_LIMIT: '1000' },
  });

  let browser: Browser | undefined;
  let party: RelyingParty | undefined;
  let clientId: string | undefined;
  const users = {} as Record<Name, SignedUpUser>;

  beforeAll(async () => {
    const { suite } = context;
    party = await RelyingParty.start();
    const names = Object.keys(options.users) as Name[];
    for (const name of names) users[name] = await signUp(suite, options.users[name]);
    const { accessToken } = await signIn(suite, users[names[0]!]);
    const created = await call<{ clientId: string; clientSecret: string }>(suite, 'POST', '/api/clients/', {
      token: accessToken,
      body: {
        name: options.clientName,
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

  const ready = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error('usePasskeyScene(): the scene exists only once beforeAll has run');
    return value;
  };

  return {
    context,
    issuer,
    get browser() {
      return ready(browser);
    },
    get party() {
      return ready(party);
    },
    get clientId() {
      return ready(clientId);
    },
    users,
    async passwordSignIn(page, user) {
      await page.goto(`${issuer}/ui/login?next=account`);
      await page.fill('input[type=email][name=email]', user.email);
      await page.fill('input[type=password][name=password]', user.password);
      await page.click('form [type=submit]');
      await page.waitForURL(`${issuer}/ui/account`);
    },
  };
}

/**
 * A CDP virtual authenticator on `page`'s browser context: CTAP2, built in (internal transport),
 * resident keys, user verification that always succeeds, presence given without a touch.
 */
export async function addVirtualAuthenticator(page: Page): Promise<CDPSession> {
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
  return cdp;
}
