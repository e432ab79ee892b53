import { SignInStatus } from '@authz/proto/walletbridge/v1/walletbridge';
import { expect, it } from 'vitest';
import { adminCall, newAdmin } from '../support/admin-scenes.js';
import { useWalletSignInScene } from '../support/wallet-test-setup.js';

// docs/admin-api.md #4: a disabled account signs in by wallet no more (the answer of a
// credential linked to nobody), and again once enabled. The flow runs at the gRPC contract the
// hosted pages use, the wallet answering through the gateway, as wallet/wallet-sign-in.test.ts.
const scene = await useWalletSignInScene({
  name: 'carol',
  gatewayEnv: { LOGIN_RATE_LIMIT: '1000', REGISTER_RATE_LIMIT: '1000' },
});
const { context } = scene;

async function walletSignIn() {
  const flow = await scene.startSignIn();
  expect((await scene.wallet.respond(flow.invocationUri)).status).toBe(200);
  return scene.readAndConfirm(flow);
}

it('refuses the wallet sign-in of a disabled account, and signs it in again once enabled', async () => {
  const admin = await newAdmin(context.suite, context.databaseUrl);
  expect((await walletSignIn()).status).toBe(SignInStatus.SIGNED_IN);

  const path = `/admin/users/${scene.user.userId}`;
  expect((await adminCall(context.suite, admin, 'PATCH', path, { disabled: true })).status).toBe(200);
  const refused = await walletSignIn();
  expect(refused.status).toBe(SignInStatus.REFUSED);
  expect(refused.signedIn).toBeUndefined();

  expect((await adminCall(context.suite, admin, 'PATCH', path, { disabled: false })).status).toBe(200);
  const again = await walletSignIn();
  expect(again.status).toBe(SignInStatus.SIGNED_IN);
  expect(again.signedIn!.userId).toBe(scene.user.userId);
});
