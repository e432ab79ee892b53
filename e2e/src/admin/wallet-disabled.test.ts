import { SignInStatus, WalletFlowService } from '@authz/proto/walletbridge/v1/walletbridge';
import { BINDER_COOKIE } from '@authz/gateway';
import { GrpcChannel, type ServiceClient } from '@authz/shared/grpc';
import { startService, type RunningService } from '@authz/shared/service';
import { testLogger } from '@authz/shared/testing';
import { buildWalletBridgeApp, loadWalletBridgeEnv } from '@authz/wallet-bridge';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TestWallet } from '../support/test-wallet.js';
import { useSuite } from '../support/use-suite.js';
import { createWalletFixture, signedInBrowser, type BrowserUser } from '../support/wallet-test-setup.js';
import { adminCall, newAdmin } from '../support/admin-scenes.js';

// docs/admin-api.md #4: a disabled account signs in by wallet no more (the answer of a
// credential linked to nobody), and again once enabled. The flow runs at the gRPC contract the
// hosted pages use, the wallet answering through the gateway, as wallet/wallet-sign-in.test.ts.
const fixture = await createWalletFixture();
const context = useSuite({
  serviceEnv: fixture.serviceEnv,
  gatewayEnv: { ...fixture.gatewayEnv, LOGIN_RATE_LIMIT: '1000', REGISTER_RATE_LIMIT: '1000' },
});
let replica: RunningService;
let channel: GrpcChannel;
let flows: ServiceClient<typeof WalletFlowService>;
let carol: BrowserUser;
let carolWallet: TestWallet;
const ORIGIN = { ip: '203.0.113.9', userAgent: 'vitest' };

beforeAll(async () => {
  const env = loadWalletBridgeEnv(context.suite.oauthEnv);
  replica = await startService(await buildWalletBridgeApp({ env, logger: testLogger() }), '127.0.0.1', 0);
  channel = new GrpcChannel(`127.0.0.1:${replica.grpcPort}`);
  flows = channel.service(WalletFlowService);
  carol = await signedInBrowser(context.suite.oauthEnv.IDENTITY_GRPC_URL!, 'carol@example.com');
  carolWallet = await TestWallet.create(fixture.issuer, {
    sub: 'carol-subject',
    email: 'carol@wallet.example',
  });
  const started = await fetch(context.url('/auth/link/wallet'), {
    method: 'POST',
    headers: { cookie: carol.cookie, 'x-csrf-token': carol.csrfToken },
  });
  const { handle, invocation_uri } = (await started.json()) as { handle: string; invocation_uri: string };
  const binder = /__Host-service_wallet_binder=([0-9a-f]{64})/.exec(started.headers.get('set-cookie')!)![1];
  expect((await carolWallet.respond(invocation_uri)).status).toBe(200);
  const cookie = `${carol.cookie}; ${BINDER_COOKIE}=${binder}`;
  await fetch(context.url(`/auth/link/wallet/${handle}`), { headers: { cookie } });
  const linked = await fetch(context.url(`/auth/link/wallet/${handle}/confirm`), {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': carol.csrfToken },
  });
  expect(((await linked.json()) as { status: string }).status).toBe('linked');
});

afterAll(async () => {
  channel?.close();
  await replica?.close();
  fixture.removeFiles();
});

async function walletSignIn() {
  const { flow } = await flows.startSignIn({ origin: ORIGIN });
  expect((await carolWallet.respond(flow!.invocationUri)).status).toBe(200);
  await flows.getSignInOutcome({ handle: flow!.handle, binder: flow!.binder });
  const { outcome } = await flows.confirmSignIn({
    handle: flow!.handle,
    binder: flow!.binder,
    confirm: true,
    origin: ORIGIN,
  });
  return outcome!;
}

it('refuses the wallet sign-in of a disabled account, and signs it in again once enabled', async () => {
  const admin = await newAdmin(context.suite, context.databaseUrl);
  expect((await walletSignIn()).status).toBe(SignInStatus.SIGNED_IN);

  const path = `/admin/users/${carol.userId}`;
  expect((await adminCall(context.suite, admin, 'PATCH', path, { disabled: true })).status).toBe(200);
  const refused = await walletSignIn();
  expect(refused.status).toBe(SignInStatus.REFUSED);
  expect(refused.signedIn).toBeUndefined();

  expect((await adminCall(context.suite, admin, 'PATCH', path, { disabled: false })).status).toBe(200);
  const again = await walletSignIn();
  expect(again.status).toBe(SignInStatus.SIGNED_IN);
  expect(again.signedIn!.userId).toBe(carol.userId);
});
