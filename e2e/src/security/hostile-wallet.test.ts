import { SESSION_COOKIE } from '@authz/shared/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestWallet } from '../support/test-wallet.js';
import { createWalletFixture } from '../support/wallet-test-setup.js';
import { useHostileSuite } from './hostile-suite.js';
import { walletRoutes, type WalletWorld } from './hostile-wallet-routes.js';

// docs/security.md "Hostile input": generated requests at the wallet routes (interface.md 1 item 7,
// 4.2, 4.5, 4.9) with wallet federation on and a verifier profile, aimed at real flows.
const fixture = await createWalletFixture();
const hostile = useHostileSuite({ gatewayEnv: fixture.gatewayEnv, serviceEnv: fixture.serviceEnv });
let wallet: WalletWorld;

afterAll(() => fixture.removeFiles());

/** A link flow of the fixtures' user, started as a browser would (POST /auth/link/wallet). */
async function startLink(): Promise<{
  handle: string;
  transport: string;
  binder: string;
  invocationUri: string;
}> {
  const { fixtures } = hostile;
  const response = await fetch(`${fixtures.issuer}/auth/link/wallet`, {
    method: 'POST',
    headers: { cookie: `${SESSION_COOKIE}=${fixtures.sessionToken}`, 'x-csrf-token': fixtures.csrfToken },
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { handle: string; invocation_uri: string };
  const binder = /__Host-service_wallet_binder=([0-9a-f]{64})/.exec(response.headers.get('set-cookie') ?? '');
  expect(binder).not.toBeNull();
  const transport = new URL(body.invocation_uri).searchParams.get('request_uri')!.split('/').at(-1)!;
  return { handle: body.handle, transport, binder: binder![1]!, invocationUri: body.invocation_uri };
}

beforeAll(async () => {
  const pending = await startLink();
  const answerable = await startLink();
  const holder = await TestWallet.create(fixture.issuer, {
    sub: 'hostile-holder',
    email: 'holder@example.com',
  });
  const request = await holder.receive(answerable.invocationUri);
  wallet = {
    pending,
    answerable: { ...answerable, state: request.state, vpToken: await holder.presentation(request) },
  };
  await hostile.writeLog.settle();
});

describe('hostile input at the wallet routes', () => {
  it('never fails, answers the envelope or a page, writes nothing when refusing', async () => {
    for (const route of walletRoutes(hostile.fixtures, wallet)) await hostile.check(route);
  }, 900_000);
});
