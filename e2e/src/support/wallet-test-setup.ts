import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BINDER_COOKIE } from '@authz/gateway';
import { IdentityService } from '@authz/proto/identity/v1/identity';
import {
  WalletFlowService,
  type FlowStarted,
  type GetSignInOutcomeResponse,
} from '@authz/proto/walletbridge/v1/walletbridge';
import { GrpcChannel, type ServiceClient } from '@authz/shared/grpc';
import { SESSION_COOKIE } from '@authz/shared/protocol';
import { startService, type RunningService } from '@authz/shared/service';
import { testLogger } from '@authz/shared/testing';
import { buildWalletBridgeApp, loadWalletBridgeEnv } from '@authz/wallet-bridge';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestVerifierChain, type TestVerifierChain } from './test-verifier.js';
import { TestIssuer, TestWallet, writeTrustedIssuers } from './test-wallet.js';
import { useSuite, type SuiteContext } from './use-suite.js';

export const PASSWORD = 'amber-Falcon-meadow-27';

export interface WalletFixture {
  chain: TestVerifierChain;
  issuer: TestIssuer;
  /** Same shape as `issuer`, absent from the trusted-issuers file. */
  untrusted: TestIssuer;
  serviceEnv: Record<string, string>;
  gatewayEnv: Record<string, string>;
  removeFiles(): void;
}

/** A verifier chain, a trusted and an untrusted issuer, and the WALLET_* settings naming them. */
export async function createWalletFixture(): Promise<WalletFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-test-'));
  const chain = await createTestVerifierChain(dir);
  const issuer = await TestIssuer.create('https://issuer.example');
  const untrusted = await TestIssuer.create('https://untrusted.example');
  return {
    chain,
    issuer,
    untrusted,
    serviceEnv: {
      WALLET_FEDERATION_ENABLED: 'true',
      WALLET_VERIFIER_KEY_FILE: chain.keyFile,
      WALLET_VERIFIER_CERT_CHAIN_FILE: chain.chainFile,
      WALLET_TRUSTED_ISSUERS_FILE: writeTrustedIssuers(dir, [issuer]),
    },
    // Tests start many flows from one address; wallet-flow-limit.test.ts covers the budget.
    gatewayEnv: { WALLET_FEDERATION_ENABLED: 'true', WALLET_FLOW_RATE_LIMIT: '1000' },
    removeFiles: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface BrowserUser {
  userId: string;
  email: string;
  sessionToken: string;
  csrfToken: string;
  /** The Cookie header of the signed-in browser. */
  cookie: string;
}

/**
 * A user signed in as the hosted pages would, straight through identity; registered first
 * unless `registered`.
 */
export async function signedInBrowser(
  identityUrl: string,
  email: string,
  registered = false,
): Promise<BrowserUser> {
  const channel = new GrpcChannel(identityUrl);
  try {
    const identity = channel.service(IdentityService);
    if (!registered) await identity.register({ email, password: PASSWORD });
    const { sessionToken } = await identity.checkCredentials({
      email,
      password: PASSWORD,
      browserSession: true,
    });
    const session = await identity.getBrowserSession({ sessionToken: sessionToken! });
    return {
      userId: session.user!.id,
      email,
      sessionToken: sessionToken!,
      csrfToken: session.csrfToken,
      cookie: `${SESSION_COOKIE}=${sessionToken}`,
    };
  } finally {
    channel.close();
  }
}

/**
 * Links `wallet`'s credential to `user` through the public API, as the account page does
 * (interface.md 4.2, docs/wallet.md #16): the start, the wallet's answer, the starting browser's
 * poll and its confirmation. Answers the status the poll read (the credential presented).
 */
export async function linkWallet(
  context: Pick<SuiteContext, 'url'>,
  user: BrowserUser,
  wallet: TestWallet,
): Promise<string> {
  const started = await fetch(context.url('/auth/link/wallet'), {
    method: 'POST',
    headers: { cookie: user.cookie, 'x-csrf-token': user.csrfToken },
  });
  const { handle, invocation_uri } = (await started.json()) as { handle: string; invocation_uri: string };
  const binder = /__Host-service_wallet_binder=([0-9a-f]{64})/.exec(started.headers.get('set-cookie')!)![1];
  expect((await wallet.respond(invocation_uri)).status).toBe(200);
  const cookie = `${user.cookie}; ${BINDER_COOKIE}=${binder}`;
  const poll = await fetch(context.url(`/auth/link/wallet/${handle}`), { headers: { cookie } });
  const polled = ((await poll.json()) as { status: string }).status;
  const linked = await fetch(context.url(`/auth/link/wallet/${handle}/confirm`), {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': user.csrfToken },
  });
  expect(((await linked.json()) as { status: string }).status).toBe('linked');
  return polled;
}

/** The browser's address and agent the wallet sign-in flows report. */
export const SIGN_IN_ORIGIN = { ip: '203.0.113.9', userAgent: 'vitest' };

export interface WalletSignInScene {
  fixture: WalletFixture;
  context: SuiteContext;
  /** The following exist from this file's beforeAll. */
  flows: ServiceClient<typeof WalletFlowService>;
  /** Signed in as `${name}@example.com`, with `wallet`'s credential linked. */
  user: BrowserUser;
  /** Subject `${name}-subject`, attesting `${name}@wallet.example`, from the trusted issuer. */
  wallet: TestWallet;
  /** What the link's poll read before the confirmation (see linkWallet). */
  linkPolled: string;
  startSignIn(): Promise<FlowStarted>;
  /** Reads a flow the wallet answered (PRESENTED, docs/wallet.md #16), then confirms it. */
  readAndConfirm(
    flow: { handle: string; binder: string },
    binder?: string,
  ): Promise<GetSignInOutcomeResponse>;
}

/**
 * One test file's suite with the wallet on, for wallet sign-in at the gRPC contract the hosted
 * pages use (interface.md 2.6), the wallet answering through the gateway. The flows run on a
 * second wallet-bridge replica sharing the suite's database: the service keeps no state of its own.
 */
export async function useWalletSignInScene(options: {
  name: string;
  gatewayEnv?: Record<string, string>;
}): Promise<WalletSignInScene> {
  const fixture = await createWalletFixture();
  const context = useSuite({
    serviceEnv: fixture.serviceEnv,
    gatewayEnv: { ...fixture.gatewayEnv, ...options.gatewayEnv },
  });
  let replica: RunningService | undefined;
  let channel: GrpcChannel | undefined;
  const scene = {
    fixture,
    context,
    startSignIn: async () => (await scene.flows.startSignIn({ origin: SIGN_IN_ORIGIN })).flow!,
    readAndConfirm: async (flow, binder = flow.binder) => {
      await scene.flows.getSignInOutcome({ handle: flow.handle, binder });
      return (
        await scene.flows.confirmSignIn({
          handle: flow.handle,
          binder,
          confirm: true,
          origin: SIGN_IN_ORIGIN,
        })
      ).outcome!;
    },
  } as WalletSignInScene;

  beforeAll(async () => {
    const env = loadWalletBridgeEnv(context.suite.oauthEnv);
    replica = await startService(await buildWalletBridgeApp({ env, logger: testLogger() }), '127.0.0.1', 0);
    channel = new GrpcChannel(`127.0.0.1:${replica.grpcPort}`);
    scene.flows = channel.service(WalletFlowService);
    scene.user = await signedInBrowser(
      context.suite.oauthEnv.IDENTITY_GRPC_URL!,
      `${options.name}@example.com`,
    );
    scene.wallet = await TestWallet.create(fixture.issuer, {
      sub: `${options.name}-subject`,
      email: `${options.name}@wallet.example`,
    });
    // Sign-in maps only linked credentials.
    scene.linkPolled = await linkWallet(context, scene.user, scene.wallet);
  });

  afterAll(async () => {
    channel?.close();
    await replica?.close();
    fixture.removeFiles();
  });

  return scene;
}
