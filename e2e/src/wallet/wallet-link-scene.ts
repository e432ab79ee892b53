import { createHash } from 'node:crypto';
import { openTestPool } from '@authz/shared/testing';
import type pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { useSuite, type SuiteContext } from '../support/use-suite.js';
import { BINDER_COOKIE } from '@authz/gateway';
import { TestWallet, type TestIssuer } from '../support/test-wallet.js';
import {
  createWalletFixture,
  signedInBrowser,
  type BrowserUser,
  type WalletFixture,
} from '../support/wallet-test-setup.js';

// What the wallet-link*.test.ts files share: interface.md 4.2 wallet linking and the 4.9 OID4VP
// transport through the gateway, with a test wallet and two signed-in browsers.
export const NOT_FOUND = { error: 'Not found', statusCode: 404, code: 'NOT_FOUND' };
export const INVALID_CSRF = { error: 'invalid_csrf_token', statusCode: 400, code: 'INVALID_CSRF_TOKEN' };
export const REJECTED = { status: 'rejected', message: 'The wallet presentation was not accepted.' };
export const EXPIRED = { status: 'expired', message: 'The request expired. Start again.' };

export interface StartedLink {
  handle: string;
  invocationUri: string;
  expiresAt: number;
  binderCookie: string;
}

export interface WalletLinkScene {
  fixture: WalletFixture;
  context: SuiteContext;
  /** The suite's database, for what only the database can show or arrange (expiry). */
  sql: pg.Pool;
  alice: BrowserUser;
  bob: BrowserUser;
  /** The gateway's answer to a route it does not have. */
  notFoundBody: unknown;
  startLink(user: BrowserUser): Promise<StartedLink>;
  poll(
    link: StartedLink,
    user: BrowserUser,
    cookies?: string,
  ): Promise<{ status: number; body: Record<string, unknown>; cacheControl: string | null }>;
  /** POST /auth/link/wallet/{handle}/confirm (or cancel) from the starting browser (docs/wallet.md #16). */
  decide(
    link: StartedLink,
    user: BrowserUser,
    decision?: 'confirm' | 'cancel',
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  linkedCredentials(userId?: string): Promise<unknown[]>;
  /** Moves a flow's expiry into the past, as the database is the only clock it reads. */
  expireLink(flowId: string, secondsAgo: number): Promise<void>;
  /** OID4VP client_id of the verifier: x509_hash of its leaf certificate. */
  leafClientId(): string;
}

/** One test file's suite with the wallet on; alice, bob, sql and notFoundBody exist from beforeAll. */
export async function useWalletLinkScene(): Promise<WalletLinkScene> {
  const fixture = await createWalletFixture();
  const context = useSuite({ serviceEnv: fixture.serviceEnv, gatewayEnv: fixture.gatewayEnv });
  const scene = {
    fixture,
    context,
    startLink: (user) => startLink(context, user),
    poll: (link, user, cookies) => poll(context, link, user, cookies),
    decide: (link, user, decision = 'confirm') => decide(context, link, user, decision),
    linkedCredentials: (userId) => linkedCredentials(scene.sql, userId),
    expireLink: async (flowId, secondsAgo) => {
      await scene.sql.query(
        `UPDATE wallet.presentation_requests SET expires_at = now() - make_interval(secs => $2) WHERE flow_id = $1`,
        [flowId, secondsAgo],
      );
    },
    leafClientId: () =>
      `x509_hash:${createHash('sha256').update(Buffer.from(fixture.chain.leaf, 'base64')).digest('base64url')}`,
  } as WalletLinkScene;
  beforeAll(async () => {
    scene.sql = openTestPool(context.databaseUrl, 2);
    const identityUrl = context.suite.oauthEnv.IDENTITY_GRPC_URL!;
    [scene.alice, scene.bob] = await Promise.all([
      signedInBrowser(identityUrl, 'alice@example.com'),
      signedInBrowser(identityUrl, 'bob@example.com'),
    ]);
    scene.notFoundBody = await (await fetch(context.url('/no-such-route'))).json();
  });
  afterAll(async () => {
    await scene.sql?.end();
    fixture.removeFiles();
  });
  return scene;
}

export const walletOf = (
  issuer: TestIssuer,
  subject: string,
  email?: string,
  payload?: Record<string, unknown>,
) => TestWallet.create(issuer, { sub: subject, ...(email ? { email } : {}) }, payload ? { payload } : {});

async function startLink(context: SuiteContext, user: BrowserUser): Promise<StartedLink> {
  const response = await fetch(context.url('/auth/link/wallet'), {
    method: 'POST',
    headers: { cookie: user.cookie, 'x-csrf-token': user.csrfToken },
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { handle: string; invocation_uri: string; expires_at: number };
  const setCookie = response.headers.get('set-cookie') ?? '';
  const binder = /^__Host-service_wallet_binder=([0-9a-f]{64});/.exec(setCookie)?.[1];
  expect(binder).toBeDefined();
  return {
    handle: body.handle,
    invocationUri: body.invocation_uri,
    expiresAt: body.expires_at,
    binderCookie: `${BINDER_COOKIE}=${binder}`,
  };
}

async function poll(context: SuiteContext, link: StartedLink, user: BrowserUser, cookies?: string) {
  const response = await fetch(context.url(`/auth/link/wallet/${link.handle}`), {
    headers: { cookie: cookies ?? `${user.cookie}; ${link.binderCookie}` },
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    cacheControl: response.headers.get('cache-control'),
  };
}

async function decide(context: SuiteContext, link: StartedLink, user: BrowserUser, decision: string) {
  const response = await fetch(context.url(`/auth/link/wallet/${link.handle}/${decision}`), {
    method: 'POST',
    headers: { cookie: `${user.cookie}; ${link.binderCookie}`, 'x-csrf-token': user.csrfToken },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function linkedCredentials(sql: pg.Pool, userId?: string) {
  const { rows } = await sql.query(
    `SELECT user_id, issuer, email FROM identity.wallet_credentials ${userId ? 'WHERE user_id = $1' : ''} ORDER BY created_at`,
    userId ? [userId] : [],
  );
  return rows;
}
