import { openTestPool } from '@authz/shared/testing';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';
import { createWalletFixture, signedInBrowser, type BrowserUser } from '../support/wallet-test-setup.js';

// Every start of a wallet flow stores a presentation request, so POST /auth/link/wallet and
// the hosted POST /ui/wallet-login and /ui/wallet-link share one per-IP budget
// (WALLET_FLOW_RATE_LIMIT, docs/security.md #5), tighter than the default one.
const fixture = await createWalletFixture();
const context = useSuite({
  serviceEnv: fixture.serviceEnv,
  gatewayEnv: { ...fixture.gatewayEnv, WALLET_FLOW_RATE_LIMIT: '2', WALLET_FLOW_RATE_WINDOW: '300' },
});
let alice: BrowserUser;
let sql: pg.Pool;

beforeAll(async () => {
  alice = await signedInBrowser(context.suite.oauthEnv.IDENTITY_GRPC_URL!, 'alice@example.com');
  sql = openTestPool(context.databaseUrl, 1);
});
afterAll(async () => {
  await sql?.end();
  fixture.removeFiles();
});

const RATE_LIMITED = { error: 'Too many requests', statusCode: 429, code: 'RATE_LIMITED' };

async function storedRequests(): Promise<number> {
  const { rows } = await sql.query<{ count: string }>('SELECT count(*) FROM wallet.presentation_requests');
  return Number(rows[0]!.count);
}

it('answers 429 once the flows started from one address use the budget, on every starting route', async () => {
  const startLink = () =>
    fetch(context.url('/auth/link/wallet'), {
      method: 'POST',
      headers: { cookie: alice.cookie, 'x-csrf-token': alice.csrfToken },
    });
  expect((await startLink()).status).toBe(200);
  expect((await startLink()).status).toBe(200);
  const stored = await storedRequests();

  const limited = await startLink();
  expect(limited.status).toBe(429);
  expect(await limited.json()).toEqual(RATE_LIMITED);
  const retryAfter = Number(limited.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(300);

  // The hosted pages that start a flow draw on the same budget, before anything is rendered.
  for (const path of ['/ui/wallet-login', '/ui/wallet-link']) {
    const page = await fetch(context.url(path), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: alice.cookie },
      body: 'csrf_token=x',
    });
    expect(page.status, path).toBe(429);
  }
  expect(await storedRequests()).toBe(stored);

  // Looking at the pages is not starting a flow.
  expect((await fetch(context.url('/ui/wallet-login'))).status).toBe(200);
});
