import { randomUUID } from 'node:crypto';
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
import { GrpcServer } from '@authz/shared/grpc';
import { spareTestPort, testLogger } from '@authz/shared/testing';
import { afterAll, beforeAll } from 'vitest';
import { startConsentUi, type RunningConsentUi } from '../../../../test/consent-ui-harness.js';

// The interface.md 4.5 wallet pages against test doubles of wallet-bridge and identity: page shape,
// what reaches the contract, and the failures end-to-end tests cannot easily provoke
// (wallet-bridge unreachable, the expired status). End to end: gateway src/wallet-pages/.
// The set-up the wallet-*.test.ts files beside this folder share.

export const HANDLE = 'h'.repeat(43);
export const BINDER = 'b'.repeat(64);
export const INVOCATION = `openid4vp://?client_id=x509_hash%3Aabc&request_uri=https%3A%2F%2Fissuer.example%2Foid4vp%2Frequest%2F${HANDLE}`;
export const SESSION = { token: 's'.repeat(64), csrfToken: 'c'.repeat(64), email: 'alice@example.com' };
export const PRESENTED = { issuer: 'https://issuer.example', email: 'holder@wallet.example' };
export const RESPONSE_CODE = 'r'.repeat(43);
/** The invocation cookie as the pages set it: the flow, its invocation URI, the pending authorization. */
export const invocationCookie = (flow: string, returnTo?: string) =>
  Buffer.from(JSON.stringify({ flow, uri: INVOCATION, ...(returnTo ? { returnTo } : {}) })).toString(
    'base64url',
  );

/** WalletFlowService as the pages see it: on or off, one flow, the outcome the test sets. */
export class FakeWalletBridge {
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
export interface IdentityState {
  signedInSecondsAgo: number;
}

/** IdentityService as far as the wallet pages use it: one signed-in browser. */
async function startIdentity(
  identityState: IdentityState,
): Promise<{ url: string; close: () => Promise<void> }> {
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

/**
 * consent-ui over real gRPC as the gateway calls it, with the wallet-bridge address. No test here
 * continues a pending authorization: nothing listens at oauth's address.
 */
async function startUi(identityUrl: string, walletBridgeUrl: string): Promise<RunningConsentUi> {
  return startConsentUi({
    identity: identityUrl,
    oauth: `127.0.0.1:${await spareTestPort()}`,
    walletBridge: walletBridgeUrl,
  });
}

/** The pages as the tests call them. */
export type WalletUi = Pick<RunningConsentUi, 'render' | 'close'>;

export interface WalletPagesFixture {
  readonly bridge: FakeWalletBridge;
  readonly identityState: IdentityState;
  readonly ui: WalletUi;
  /** consent-ui whose wallet-bridge address has nothing listening (`withUnreachable`). */
  readonly unreachable: WalletUi;
}

/** Call once at the top of a test file: the test doubles and consent-ui, started beforeAll. */
export function useWalletPages({ withUnreachable = false } = {}): WalletPagesFixture {
  const bridge = new FakeWalletBridge();
  const identityState: IdentityState = { signedInSecondsAgo: 10 };
  let identity: Awaited<ReturnType<typeof startIdentity>>;
  let ui: RunningConsentUi | undefined;
  let unreachable: RunningConsentUi | undefined;

  beforeAll(async () => {
    identity = await startIdentity(identityState);
    ui = await startUi(identity.url, await bridge.start());
    if (withUnreachable) unreachable = await startUi(identity.url, `127.0.0.1:${await spareTestPort()}`);
  });
  afterAll(async () => {
    await ui?.close();
    await unreachable?.close();
    await bridge.close();
    await identity?.close();
  });
  /** Usable at the top of a test file; each call reaches the consent-ui beforeAll started. */
  const started = (get: () => RunningConsentUi | undefined): WalletUi => {
    const running = () => {
      const value = get();
      if (!value) throw new Error('useWalletPages(): consent-ui runs only once beforeAll has run');
      return value;
    };
    return {
      render: (method, path, call) => running().render(method, path, call),
      close: () => running().close(),
    };
  };
  return {
    bridge,
    identityState,
    ui: started(() => ui),
    unreachable: started(() => unreachable),
  };
}

export const signedIn = { '__Host-service_session': SESSION.token };
export const withBinder = (cookies: Record<string, string> = {}) => ({
  ...cookies,
  '__Host-service_wallet_binder': BINDER,
});
