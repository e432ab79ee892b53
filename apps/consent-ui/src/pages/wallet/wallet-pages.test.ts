import { randomBytes, randomUUID } from 'node:crypto';
import { HostedPagesService } from '@authz/proto/consentui/v1/consentui';
import { IdentityService } from '@authz/proto/identity/v1/identity';
import {
  LinkStatus,
  SignInStatus,
  WalletFlowService,
  type ConfirmLinkRequest,
  type ConfirmSignInRequest,
  type GetLinkOutcomeRequest,
  type GetSignInOutcomeRequest,
  type StartLinkRequest,
} from '@authz/proto/walletbridge/v1/walletbridge';
import { InternalError, InvalidCsrfTokenError, NotFoundError, UnauthorizedError } from '@authz/shared/errors';
import { GrpcChannel, GrpcServer } from '@authz/shared/grpc';
import { startService } from '@authz/shared/service';
import { spareTestPort, testLogger } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsentUiApp, loadConsentUiEnv } from '../../app.js';
import {
  cookiesSet,
  heading,
  hiddenField,
  renderedPage,
  TEST_ORIGIN,
  type RenderedPage,
} from '../../../test/consent-ui-harness.js';
import { expectHtmlPage } from '../../../test/page-shape.js';

// The interface.md 4.5 wallet pages against test doubles of wallet-bridge and identity: page shape,
// what reaches the contract, and the failures end-to-end tests cannot easily provoke
// (wallet-bridge unreachable, the expired status). End to end: gateway src/wallet-pages/.

const HANDLE = 'h'.repeat(43);
const BINDER = 'b'.repeat(64);
const INVOCATION = `openid4vp://?client_id=x509_hash%3Aabc&request_uri=https%3A%2F%2Fissuer.example%2Foid4vp%2Frequest%2F${HANDLE}`;
const SESSION = { token: 's'.repeat(64), csrfToken: 'c'.repeat(64), email: 'alice@example.com' };
const PRESENTED = { issuer: 'https://issuer.example', email: 'holder@wallet.example' };
const RESPONSE_CODE = 'r'.repeat(43);
/** The invocation cookie as the pages set it: the flow, its invocation URI, the pending authorization. */
const invocationCookie = (flow: string, returnTo?: string) =>
  Buffer.from(JSON.stringify({ flow, uri: INVOCATION, ...(returnTo ? { returnTo } : {}) })).toString(
    'base64url',
  );

/** WalletFlowService as the pages see it: on or off, one flow, the outcome the test sets. */
class FakeWalletBridge {
  enabled = true;
  signInStatus = SignInStatus.PENDING;
  link: { status: LinkStatus; message?: string; presented?: typeof PRESENTED } = {
    status: LinkStatus.PENDING,
  };
  readonly starts: StartLinkRequest[] = [];
  readonly reads: (GetSignInOutcomeRequest | GetLinkOutcomeRequest)[] = [];
  readonly decisions: (ConfirmSignInRequest | ConfirmLinkRequest)[] = [];
  /** The flow the response code names, once; undefined when spent. */
  redeemable: string | undefined;
  private readonly server = new GrpcServer({ serviceName: 'wallet-bridge', logger: testLogger() });

  async start(): Promise<string> {
    const flow = {
      handle: HANDLE,
      invocationUri: INVOCATION,
      expiresAt: BigInt(Date.now() + 300_000),
      binder: BINDER,
    };
    const on = () => {
      if (!this.enabled) throw new NotFoundError({ detail: 'off' });
    };
    this.server.addService(WalletFlowService, {
      startSignIn: async () => (on(), { flow }),
      startLink: async (request) => {
        on();
        this.starts.push(request);
        if (request.sessionToken !== SESSION.token) throw new UnauthorizedError();
        if (request.csrfToken !== SESSION.csrfToken) throw new InvalidCsrfTokenError();
        return { flow };
      },
      getSignInOutcome: async (request) => {
        on();
        if (request.handle !== '') this.reads.push(request);
        if (request.handle !== HANDLE || request.binder !== BINDER) return { status: SignInStatus.REFUSED };
        return this.signInStatus === SignInStatus.PRESENTED
          ? { status: SignInStatus.PRESENTED, presented: PRESENTED }
          : { status: this.signInStatus };
      },
      getLinkOutcome: async (request) => {
        on();
        this.reads.push(request);
        if (request.sessionToken !== SESSION.token) throw new UnauthorizedError();
        if (request.handle !== HANDLE || request.binder !== BINDER) throw new NotFoundError();
        return this.link;
      },
      confirmSignIn: async (request) => {
        on();
        this.decisions.push(request);
        if (request.handle !== HANDLE || request.binder !== BINDER || !request.confirm) {
          return { outcome: { status: SignInStatus.REFUSED } };
        }
        const signedIn = {
          userId: randomUUID(),
          sessionId: randomUUID(),
          sessionToken: 'n'.repeat(64),
          csrfToken: '',
          authTime: 0n,
        };
        return { outcome: { status: SignInStatus.SIGNED_IN, signedIn } };
      },
      confirmLink: async (request) => {
        on();
        this.decisions.push(request);
        if (request.sessionToken !== SESSION.token) throw new UnauthorizedError();
        if (request.csrfToken !== SESSION.csrfToken) throw new InvalidCsrfTokenError();
        if (request.handle !== HANDLE || request.binder !== BINDER) throw new NotFoundError();
        return {
          outcome: request.confirm
            ? { status: LinkStatus.LINKED, message: 'Linked.' }
            : { status: LinkStatus.CANCELLED, message: 'Cancelled.' },
        };
      },
      redeemResponseCode: async (request) => {
        on();
        if (request.responseCode !== RESPONSE_CODE || request.binder !== BINDER || !this.redeemable) {
          throw new NotFoundError();
        }
        const purpose = this.redeemable;
        this.redeemable = undefined;
        return { handle: HANDLE, purpose };
      },
    });
    return `127.0.0.1:${await this.server.listen('127.0.0.1', 0)}`;
  }

  close(): Promise<void> {
    return this.server.close(100);
  }
}

/** How long ago the one signed-in browser signed in (docs/wallet.md #19). */
const identityState = { signedInSecondsAgo: 10 };

/** IdentityService as far as the wallet pages use it: one signed-in browser. */
async function startIdentity(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = new GrpcServer({ serviceName: 'identity', logger: testLogger() });
  const notHere = async (): Promise<never> => {
    throw new InternalError({ detail: 'not implemented by the test double' });
  };
  server.addService(IdentityService, {
    register: notHere,
    verifyEmail: notHere,
    completeSecondFactor: notHere,
    stepUpSession: notHere,
    resendVerification: notHere,
    getUser: notHere,
    endSession: notHere,
    ensureDeveloper: notHere,
    checkCredentials: notHere,
    signInWithWallet: notHere,
    linkWalletCredential: notHere,
    getBrowserSession: async ({ sessionToken }) => {
      if (sessionToken !== SESSION.token) throw new UnauthorizedError();
      const user = {
        id: randomUUID(),
        email: SESSION.email,
        emailVerified: false,
        realmId: randomUUID(),
        createdAt: 0n,
      };
      const authTime = BigInt(Math.floor(Date.now() / 1000) - identityState.signedInSecondsAgo);
      return { sessionId: randomUUID(), user, authTime, csrfToken: SESSION.csrfToken };
    },
  });
  const port = await server.listen('127.0.0.1', 0);
  return { url: `127.0.0.1:${port}`, close: () => server.close(100) };
}

interface RunningUi {
  render(
    method: string,
    path: string,
    call?: {
      form?: Record<string, string>;
      cookies?: Record<string, string>;
      query?: Record<string, string>;
    },
  ): Promise<RenderedPage>;
  close(): Promise<void>;
}

/**
 * consent-ui over real gRPC as the gateway calls it (test/consent-ui-harness.ts, plus the
 * wallet-bridge address). No test here continues a pending authorization: nothing listens
 * at oauth's address.
 */
async function startUi(identityUrl: string, walletBridgeUrl: string): Promise<RunningUi> {
  const env = loadConsentUiEnv({
    JWT_ISSUER: 'https://issuer.example',
    SECRET_HASH_KEY: randomBytes(32).toString('hex'),
    IDENTITY_GRPC_URL: identityUrl,
    OAUTH_GRPC_URL: `127.0.0.1:${await spareTestPort()}`,
    WALLET_BRIDGE_GRPC_URL: walletBridgeUrl,
  });
  const running = await startService(await buildConsentUiApp({ env, logger: testLogger() }), '127.0.0.1', 0);
  const channel = new GrpcChannel(`127.0.0.1:${running.grpcPort}`);
  const pages = channel.service(HostedPagesService);
  const fields = (source: Record<string, string>) =>
    Object.entries(source).map(([name, value]) => ({ name, value }));
  return {
    async render(method, path, { form = {}, cookies = {}, query = {} } = {}) {
      return renderedPage(
        await pages.renderPage({
          method,
          path,
          query: fields(query),
          form: fields(form),
          cookies,
          origin: TEST_ORIGIN,
        }),
      );
    },
    async close() {
      channel.close();
      await running.close();
    },
  };
}

const bridge = new FakeWalletBridge();
let identity: Awaited<ReturnType<typeof startIdentity>>;
let ui: RunningUi;
/** consent-ui whose wallet-bridge address has nothing listening. */
let unreachable: RunningUi;

beforeAll(async () => {
  identity = await startIdentity();
  ui = await startUi(identity.url, await bridge.start());
  unreachable = await startUi(identity.url, `127.0.0.1:${await spareTestPort()}`);
});
afterAll(async () => {
  await ui?.close();
  await unreachable?.close();
  await bridge.close();
  await identity?.close();
});

const signedIn = { '__Host-service_session': SESSION.token };
const withBinder = (cookies: Record<string, string> = {}) => ({
  ...cookies,
  '__Host-service_wallet_binder': BINDER,
});

/** GET /ui/wallet-login, then its form posted back as the browser would. */
async function startSignIn(): Promise<RenderedPage> {
  const form = await ui.render('GET', '/ui/wallet-login');
  return ui.render('POST', '/ui/wallet-login', {
    cookies: { '__Host-service_login': cookiesSet(form)['__Host-service_login']! },
    form: { csrf_token: hiddenField(form, 'csrf_token')! },
  });
}

describe('wallet sign-in pages', () => {
  it('render as accessible documents without script', async () => {
    expectHtmlPage(await ui.render('GET', '/ui/wallet-login'), 200);
    const started = await startSignIn();
    expectHtmlPage(started, 200);
    expect(started.body).toContain(`<a href="${INVOCATION.replace(/&/g, '&amp;')}" id="open-wallet">`);
    expect(started.body).toContain(
      `<meta http-equiv="refresh" content="3; url=/ui/wallet-login/${HANDLE}/status" />`,
    );
    const cookies = cookiesSet(started);
    expect(cookies['__Host-service_wallet_binder']).toBe(BINDER);
    expect(cookies['__Host-service_wallet_invocation']).toBe(invocationCookie(HANDLE));
    const waiting = await ui.render('GET', `/ui/wallet-login/${HANDLE}`, {
      cookies: withBinder({
        '__Host-service_wallet_invocation': cookies['__Host-service_wallet_invocation']!,
      }),
    });
    expectHtmlPage(waiting, 200);
    expect(waiting.body).toBe(started.body);
    expectHtmlPage(await ui.render('GET', `/ui/wallet-login/${HANDLE}/status`), 400);
  });

  it('shows no QR code for another flow’s invocation cookie', async () => {
    const other = invocationCookie('x'.repeat(43));
    const page = await ui.render('GET', `/ui/wallet-login/${HANDLE}`, {
      cookies: withBinder({ '__Host-service_wallet_invocation': other }),
    });
    expectHtmlPage(page, 200);
    expect(page.body).not.toContain('<img');
    expect(page.body).toContain('Waiting for your wallet to answer.');
  });

  it('shows what was presented, and sets the session only once the confirmation is posted', async () => {
    bridge.signInStatus = SignInStatus.PRESENTED;
    try {
      const login = cookiesSet(await ui.render('GET', '/ui/wallet-login'))['__Host-service_login']!;
      const cookies = withBinder({ '__Host-service_login': login });
      const shown = await ui.render('GET', `/ui/wallet-login/${HANDLE}/status`, { cookies });
      expectHtmlPage(shown, 200);
      expect(heading(shown)).toBe('Is this your wallet credential?');
      expect(shown.body).toContain(`<dd data-presented="issuer">${PRESENTED.issuer}</dd>`);
      expect(shown.body).toContain(`<dd data-presented="email">${PRESENTED.email}</dd>`);
      expect(shown.signedIn).toBeUndefined();
      expect(bridge.reads.at(-1)).toMatchObject({ handle: HANDLE, binder: BINDER });
      const csrfToken = hiddenField(shown, 'csrf_token')!;
      // Without the pre-session, or with a forged token: refused, nothing decided.
      const decided = bridge.decisions.length;
      for (const [jar, token] of [
        [withBinder(), csrfToken],
        [cookies, 'forged'],
      ] as const) {
        const refused = await ui.render('POST', `/ui/wallet-login/${HANDLE}/status`, {
          cookies: jar,
          form: { csrf_token: token, decision: 'confirm' },
        });
        expect(refused.status).toBe(400);
      }
      expect(bridge.decisions).toHaveLength(decided);
      const cancelled = await ui.render('POST', `/ui/wallet-login/${HANDLE}/status`, {
        cookies,
        form: { csrf_token: csrfToken, decision: 'cancel' },
      });
      expectHtmlPage(cancelled, 200);
      expect(heading(cancelled)).toBe('Wallet sign-in cancelled');
      expect(cancelled.signedIn).toBeUndefined();
      const page = await ui.render('POST', `/ui/wallet-login/${HANDLE}/status`, {
        cookies,
        form: { csrf_token: csrfToken, decision: 'confirm' },
      });
      expect(bridge.decisions.at(-1)).toMatchObject({ handle: HANDLE, binder: BINDER, confirm: true });
      expect(page.status).toBe(303);
      expect(page.location).toBe('/ui/login');
      // The gateway sets the session cookie from the outcome; the page clears the rest.
      expect(page.signedIn).toEqual({ sessionToken: 'n'.repeat(64) });
      expect(page.setCookies).toEqual([
        '__Host-service_login=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0',
        '__Host-service_wallet_binder=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0',
        '__Host-service_wallet_invocation=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0',
      ]);
      expect(cookiesSet(page)['__Host-service_session']).toBe('n'.repeat(64));
    } finally {
      bridge.signInStatus = SignInStatus.PENDING;
    }
  });
});

describe('the same-device return', () => {
  it('sends the binder’s browser to the flow’s page once, and refuses anyone else', async () => {
    bridge.redeemable = 'sign_in';
    const query = { response_code: RESPONSE_CODE };
    const stranger = await ui.render('GET', '/ui/wallet-return', { query });
    expectHtmlPage(stranger, 400);
    const back = await ui.render('GET', '/ui/wallet-return', {
      query,
      cookies: withBinder({ '__Host-service_wallet_invocation': invocationCookie(HANDLE, 'p'.repeat(43)) }),
    });
    expect(back.status).toBe(303);
    expect(back.location).toBe(`/ui/wallet-login/${HANDLE}/status?handle=${'p'.repeat(43)}`);
    expectHtmlPage(await ui.render('GET', '/ui/wallet-return', { query, cookies: withBinder() }), 400);
    bridge.redeemable = 'link';
    const link = await ui.render('GET', '/ui/wallet-return', { query, cookies: withBinder() });
    expect(link.location).toBe(`/ui/wallet-link/${HANDLE}`);
  });
});

describe('wallet link pages', () => {
  it('ask for a new sign-in when the session’s is older than 5 minutes', async () => {
    identityState.signedInSecondsAgo = 301;
    try {
      const page = await ui.render('GET', '/ui/wallet-link', { cookies: signedIn });
      expectHtmlPage(page, 401);
      expect(heading(page)).toBe('Sign in again');
      expect(page.body).toContain('<a href="/ui/login?next=wallet-link">Sign in</a>');
    } finally {
      identityState.signedInSecondsAgo = 10;
    }
  });

  it('show what was presented, and post the decision with the session’s CSRF token', async () => {
    bridge.link = { status: LinkStatus.PRESENTED, presented: PRESENTED };
    try {
      const page = await ui.render('GET', `/ui/wallet-link/${HANDLE}`, { cookies: withBinder(signedIn) });
      expectHtmlPage(page, 200);
      expect(heading(page)).toBe('Is this your wallet credential?');
      expect(page.body).toContain(`<dd data-presented="email">${PRESENTED.email}</dd>`);
      expect(hiddenField(page, 'csrf_token')).toBe(SESSION.csrfToken);
      const linked = await ui.render('POST', `/ui/wallet-link/${HANDLE}`, {
        cookies: withBinder(signedIn),
        form: { csrf_token: SESSION.csrfToken, decision: 'confirm' },
      });
      expect(heading(linked)).toBe('Wallet linked');
      expect(bridge.decisions.at(-1)).toMatchObject({ handle: HANDLE, binder: BINDER, confirm: true });
      const forged = await ui.render('POST', `/ui/wallet-link/${HANDLE}`, {
        cookies: withBinder(signedIn),
        form: { csrf_token: 'x', decision: 'cancel' },
      });
      expect(forged.status).toBe(400);
    } finally {
      bridge.link = { status: LinkStatus.PENDING };
    }
  });

  it('pass the session cookie and the form’s CSRF token to StartLink', async () => {
    const confirmation = await ui.render('GET', '/ui/wallet-link', { cookies: signedIn });
    expectHtmlPage(confirmation, 200);
    expect(hiddenField(confirmation, 'csrf_token')).toBe(SESSION.csrfToken);
    const started = await ui.render('POST', '/ui/wallet-link', {
      cookies: signedIn,
      form: { csrf_token: SESSION.csrfToken },
    });
    expectHtmlPage(started, 200);
    expect(bridge.starts.at(-1)).toMatchObject({ sessionToken: SESSION.token, csrfToken: SESSION.csrfToken });
    const forged = await ui.render('POST', '/ui/wallet-link', {
      cookies: signedIn,
      form: { csrf_token: 'x' },
    });
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.body)).toEqual({
      error: 'invalid_csrf_token',
      statusCode: 400,
      code: 'INVALID_CSRF_TOKEN',
    });
  });

  it.each([
    [LinkStatus.LINKED, 'Wallet linked', 'linked'],
    [LinkStatus.CONFLICT, 'Wallet already linked', 'conflict'],
    [LinkStatus.EXPIRED, 'Request expired', 'expired'],
    [LinkStatus.REJECTED, 'Wallet not accepted', 'rejected'],
    [LinkStatus.CANCELLED, 'Linking cancelled', 'cancelled'],
  ])('show status %s in plain words, the message escaped', async (status, title, name) => {
    bridge.link = { status, message: 'Said <b>plainly</b> & "escaped"' };
    try {
      const page = await ui.render('GET', `/ui/wallet-link/${HANDLE}`, { cookies: withBinder(signedIn) });
      expectHtmlPage(page, 200);
      expect(heading(page)).toBe(title);
      expect(page.body).toContain(
        `<p role="status" data-status="${name}">Said &lt;b&gt;plainly&lt;/b&gt; &amp; &quot;escaped&quot;</p>`,
      );
      expect(page.body).not.toContain('http-equiv="refresh"');
    } finally {
      bridge.link = { status: LinkStatus.PENDING };
    }
  });

  it('show the uniform refusal without the binder cookie, and ask a signed-out browser to sign in', async () => {
    const refused = await ui.render('GET', `/ui/wallet-link/${HANDLE}`, { cookies: signedIn });
    expectHtmlPage(refused, 400);
    expect(heading(refused)).toBe('This wallet request cannot be used');
    const foreign = await ui.render('GET', `/ui/wallet-link/${'x'.repeat(43)}`, {
      cookies: withBinder(signedIn),
    });
    expect(foreign.body).toBe(refused.body);
    expectHtmlPage(await ui.render('GET', `/ui/wallet-link/${HANDLE}`, { cookies: withBinder() }), 401);
    expectHtmlPage(await ui.render('GET', '/ui/wallet-link'), 401);
  });
});

describe('while wallet-bridge says the feature is off', () => {
  beforeAll(() => {
    bridge.enabled = false;
  });
  afterAll(() => {
    bridge.enabled = true;
  });

  it.each([
    ['GET', '/ui/wallet-login'],
    ['POST', '/ui/wallet-login'],
    ['GET', `/ui/wallet-login/${HANDLE}`],
    ['GET', `/ui/wallet-login/${HANDLE}/status`],
    ['GET', '/ui/wallet-link'],
    ['POST', '/ui/wallet-link'],
    ['GET', `/ui/wallet-link/${HANDLE}`],
    ['POST', `/ui/wallet-link/${HANDLE}`],
    ['POST', `/ui/wallet-login/${HANDLE}/status`],
    ['GET', '/ui/wallet-return'],
    // Even a method the path does not take: the path does not exist at all.
    ['POST', '/ui/wallet-return'],
  ])('%s %s is the 404 page, before any other check', async (method, path) => {
    const page = await ui.render(method, path, {
      cookies: withBinder(signedIn),
      form: { csrf_token: 'forged' },
    });
    expectHtmlPage(page, 404);
    expect(page.setCookies).toEqual([]);
  });

  it('the sign-in page offers no wallet', async () => {
    const page = await ui.render('GET', '/ui/login');
    expectHtmlPage(page, 200);
    expect(page.body).not.toContain('/ui/wallet-login');
  });
});

describe('while wallet-bridge cannot be reached', () => {
  it('the sign-in page still works, without the wallet offer', async () => {
    const page = await unreachable.render('GET', '/ui/login');
    expectHtmlPage(page, 200);
    expect(page.body).not.toContain('/ui/wallet-login');
  });

  it('the wallet pages are the 500 page', async () => {
    expectHtmlPage(await unreachable.render('GET', '/ui/wallet-login'), 500);
  });
});

it('offers wallet sign-in on the sign-in page while the feature is on', async () => {
  const page = await ui.render('GET', '/ui/login');
  expect(page.body).toContain('<a href="/ui/wallet-login">Sign in with a wallet instead</a>');
});
