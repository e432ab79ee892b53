import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSuite } from '../test/use-suite.js';
import { BINDER_COOKIE } from './binder-cookie.js';
import { TestWallet, postForm, type TestIssuer } from './test-wallet.js';
import { createWalletFixture, signedInBrowser, type BrowserUser } from './wallet-test-setup.js';

// Spec 4.2 wallet linking and the 4.9 OID4VP transport, end to end through the gateway with a
// test wallet (issue 8 items 2-5, 7; DECISIONS.md #17-19, #25).
const fixture = await createWalletFixture();
const context = useSuite({ serviceEnv: fixture.serviceEnv, gatewayEnv: fixture.gatewayEnv });
let sql: pg.Pool;
let alice: BrowserUser;
let bob: BrowserUser;
let notFoundBody: unknown;

const NOT_FOUND = { error: 'Not found', statusCode: 404, code: 'NOT_FOUND' };
const INVALID_CSRF = { error: 'invalid_csrf_token', statusCode: 400, code: 'INVALID_CSRF_TOKEN' };
const REJECTED = { status: 'rejected', message: 'The wallet presentation was not accepted.' };

beforeAll(async () => {
  sql = new pg.Pool({ connectionString: context.databaseUrl, max: 2 });
  const identityUrl = context.suite.oauthEnv.IDENTITY_GRPC_URL!;
  [alice, bob] = await Promise.all([
    signedInBrowser(identityUrl, 'alice@example.com'),
    signedInBrowser(identityUrl, 'bob@example.com'),
  ]);
  notFoundBody = await (await fetch(context.url('/no-such-route'))).json();
});
afterAll(async () => {
  await sql?.end();
  fixture.removeFiles();
});

interface StartedLink {
  handle: string;
  invocationUri: string;
  expiresAt: number;
  binderCookie: string;
}

async function startLink(user: BrowserUser): Promise<StartedLink> {
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

async function poll(link: StartedLink, user: BrowserUser, cookies?: string) {
  const response = await fetch(context.url(`/auth/link/wallet/${link.handle}`), {
    headers: { cookie: cookies ?? `${user.cookie}; ${link.binderCookie}` },
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    cacheControl: response.headers.get('cache-control'),
  };
}

const walletOf = (issuer: TestIssuer, subject: string, email?: string, payload?: Record<string, unknown>) =>
  TestWallet.create(issuer, { sub: subject, ...(email ? { email } : {}) }, payload ? { payload } : {});

async function linkedCredentials(userId?: string) {
  const { rows } = await sql.query(
    `SELECT user_id, issuer, email FROM identity.wallet_credentials ${userId ? 'WHERE user_id = $1' : ''} ORDER BY created_at`,
    userId ? [userId] : [],
  );
  return rows;
}

describe('POST /auth/link/wallet', () => {
  it('starts a flow: handle, invocation URI, expiry and a host-only binder cookie', async () => {
    const before = Date.now();
    const response = await fetch(context.url('/auth/link/wallet'), {
      method: 'POST',
      headers: { cookie: alice.cookie, 'x-csrf-token': alice.csrfToken },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('set-cookie')).toMatch(
      /^__Host-service_wallet_binder=[0-9a-f]{64}; Max-Age=(29\d|300); Path=\/; Secure; HttpOnly; SameSite=Lax$/,
    );
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'handle', 'invocation_uri']);
    expect(body.handle).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.expires_at).toBeGreaterThanOrEqual(before + 299_000);
    expect(body.expires_at).toBeLessThanOrEqual(Date.now() + 300_000);
    const invocation = new URL(body.invocation_uri as string);
    expect(invocation.protocol).toBe('openid4vp:');
    expect(invocation.searchParams.get('request_uri')).toBe(context.url(`/oid4vp/request/${body.handle}`));
    expect(invocation.searchParams.get('client_id')).toBe(leafClientId());
  });

  it('answers 401 without a session and 400 invalid_csrf_token without the right header', async () => {
    const noSession = await fetch(context.url('/auth/link/wallet'), { method: 'POST' });
    expect(noSession.status).toBe(401);
    expect(await noSession.json()).toEqual({ error: 'Unauthorized', statusCode: 401, code: 'UNAUTHORIZED' });
    const unknownSession = await fetch(context.url('/auth/link/wallet'), {
      method: 'POST',
      headers: { cookie: `__Host-service_session=${'0'.repeat(64)}`, 'x-csrf-token': alice.csrfToken },
    });
    expect(unknownSession.status).toBe(401);
    for (const headers of [{}, { 'x-csrf-token': bob.csrfToken }] as Record<string, string>[]) {
      const response = await fetch(context.url('/auth/link/wallet'), {
        method: 'POST',
        headers: { cookie: alice.cookie, ...headers },
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(await response.json()).toEqual(INVALID_CSRF);
    }
  });
});

describe('GET /oid4vp/request/{handle}', () => {
  it('serves the signed request object, again and again, with x5c = leaf + intermediate', async () => {
    const link = await startLink(alice);
    const url = new URL(link.invocationUri).searchParams.get('request_uri')!;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/oauth-authz-req+jwt');
    expect(first.headers.get('cache-control')).toBe('no-store');
    const wallet = await walletOf(fixture.issuer, 'alice-subject');
    const received = await wallet.receive(link.invocationUri);
    expect(received.header).toEqual({
      alg: 'ES256',
      typ: 'oauth-authz-req+jwt',
      x5c: [fixture.chain.leaf, fixture.chain.intermediate],
    });
    expect(received.header.x5c).not.toContain(fixture.chain.root);
    const { iat, exp, nonce, state, ...claims } = received.claims;
    expect(claims).toEqual({
      iss: leafClientId(),
      aud: 'https://self-issued.me/v2',
      client_id: leafClientId(),
      response_type: 'vp_token',
      response_mode: 'direct_post',
      response_uri: context.url('/oid4vp/response'),
      dcql_query: {
        credentials: [
          {
            id: 'wallet_credential',
            format: 'dc+sd-jwt',
            meta: { vct_values: ['https://credentials.example/identity_credential'] },
            claims: [
              { id: 'subject', path: ['sub'] },
              { id: 'email', path: ['email'] },
            ],
            claim_sets: [['subject', 'email'], ['subject']],
          },
        ],
      },
      client_metadata: expect.objectContaining({ vp_formats_supported: expect.any(Object) }),
    });
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(nonce).not.toBe(state);
    expect(exp).toBe(Math.floor(link.expiresAt / 1000));
    expect(exp as number).toBeGreaterThan(iat as number);
    // Reading consumed nothing: a wallet may fetch it again, and the flow is still pending.
    expect((await fetch(url)).status).toBe(200);
    expect((await poll(link, alice)).body).toEqual({ status: 'pending' });
  });

  it('gives unknown, malformed and expired handles the same bare 404', async () => {
    const link = await startLink(alice);
    await sql.query(
      `UPDATE wallet.presentation_requests SET expires_at = now() - interval '1 second' WHERE handle = $1`,
      [link.handle],
    );
    for (const handle of [link.handle, 'A'.repeat(43), 'not-a-handle', 'x'.repeat(500)]) {
      const response = await fetch(context.url(`/oid4vp/request/${handle}`));
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(NOT_FOUND);
    }
    expect(notFoundBody).toEqual(NOT_FOUND);
  });
});

describe('linking a wallet credential end to end', () => {
  it('links after a verified presentation; the response is single use; polls stay linked', async () => {
    const link = await startLink(alice);
    const wallet = await walletOf(fixture.issuer, 'alice-subject', 'alice@wallet.example');
    const posted = await wallet.respond(link.invocationUri);
    expect(posted).toMatchObject({ status: 200, body: '' });
    // Correlated but not yet verified: nothing is linked until the outcome is read.
    expect(await linkedCredentials(alice.userId)).toEqual([]);

    const replay = await postForm(posted.request.responseUri, posted.form);
    expect(replay.status).toBe(400);
    expect(JSON.parse(replay.body)).toMatchObject({ error: 'invalid_request', statusCode: 400 });

    const outcome = await poll(link, alice);
    expect(outcome).toEqual({
      status: 200,
      body: { status: 'linked', message: 'The wallet credential is linked to your account.' },
      cacheControl: 'no-store',
    });
    expect((await poll(link, alice)).body.status).toBe('linked');
    expect(await linkedCredentials(alice.userId)).toEqual([
      { user_id: alice.userId, issuer: 'https://issuer.example', email: 'alice@wallet.example' },
    ]);
    // The answered request is no longer served, and the presentation is not kept.
    expect((await fetch(new URL(link.invocationUri).searchParams.get('request_uri')!)).status).toBe(404);
    const { rows } = await sql.query(
      `SELECT vp_token, status FROM wallet.presentation_requests WHERE handle = $1`,
      [link.handle],
    );
    expect(rows).toEqual([{ vp_token: null, status: 'linked' }]);

    // Linking the same credential again is idempotent for the same user.
    const again = await startLink(alice);
    await wallet.respond(again.invocationUri);
    expect((await poll(again, alice)).body.status).toBe('linked');
    expect(await linkedCredentials(alice.userId)).toHaveLength(1);
  });

  it('answers conflict when another account holds the credential, linking nothing', async () => {
    const link = await startLink(bob);
    const wallet = await walletOf(fixture.issuer, 'alice-subject');
    await wallet.respond(link.invocationUri);
    expect((await poll(link, bob)).body).toEqual({
      status: 'conflict',
      message: 'This wallet credential is already linked to another account.',
    });
    expect(await linkedCredentials(bob.userId)).toEqual([]);
    expect(await linkedCredentials(alice.userId)).toHaveLength(1);
  });
});

describe('presentations that must not be trusted', () => {
  const cases: [
    string,
    () => Promise<{ wallet: TestWallet; options?: Parameters<TestWallet['respond']>[1] }>,
  ][] = [
    [
      'a wrong nonce',
      async () => ({ wallet: await walletOf(fixture.issuer, 'bob-1'), options: { nonce: 'another-nonce' } }),
    ],
    [
      'a wrong audience',
      async () => ({
        wallet: await walletOf(fixture.issuer, 'bob-2'),
        options: { audience: 'x509_hash:someone-else' },
      }),
    ],
    ['an untrusted issuer', async () => ({ wallet: await walletOf(fixture.untrusted, 'bob-3') })],
    [
      'an expired credential',
      async () => ({
        wallet: await walletOf(fixture.issuer, 'bob-4', undefined, {
          exp: Math.floor(Date.now() / 1000) - 600,
        }),
      }),
    ],
    [
      'a status that cannot be checked',
      async () => ({
        wallet: await walletOf(fixture.issuer, 'bob-5', undefined, {
          status: { status_list: { idx: 1, uri: 'https://issuer.example/status' } },
        }),
      }),
    ],
    [
      "another holder's key binding",
      async () => {
        const wallet = await walletOf(fixture.issuer, 'bob-6');
        const other = await walletOf(fixture.issuer, 'bob-6');
        return { wallet, options: { credential: other.credential } };
      },
    ],
  ];

  it.each(cases)('rejects %s with the one uniform status, linking nothing', async (_name, build) => {
    const { wallet, options } = await build();
    const link = await startLink(bob);
    const posted = await wallet.respond(link.invocationUri, options);
    expect(posted.status).toBe(200);
    expect(await poll(link, bob)).toEqual({ status: 200, body: REJECTED, cacheControl: 'no-store' });
    expect((await poll(link, bob)).body).toEqual(REJECTED);
    expect(await linkedCredentials(bob.userId)).toEqual([]);
  });

  it('rejects a wallet that declines', async () => {
    const link = await startLink(bob);
    const wallet = await walletOf(fixture.issuer, 'bob-7');
    const { state, responseUri } = await wallet.receive(link.invocationUri);
    const declined = await postForm(responseUri, new URLSearchParams({ state, error: 'access_denied' }));
    expect(declined).toEqual({ status: 200, body: '' });
    expect((await poll(link, bob)).body).toEqual(REJECTED);
  });
});

describe('flows that are not this browser’s or no longer open', () => {
  it('refuses another user’s session and a missing or foreign binder, leaving the flow intact', async () => {
    const link = await startLink(alice);
    const bobs = await startLink(bob);
    for (const cookies of [
      `${bob.cookie}; ${link.binderCookie}`,
      alice.cookie,
      `${alice.cookie}; ${bobs.binderCookie}`,
      `${alice.cookie}; ${BINDER_COOKIE}=${'0'.repeat(64)}`,
    ]) {
      expect(await poll(link, alice, cookies)).toEqual({
        status: 404,
        body: NOT_FOUND,
        cacheControl: 'no-store',
      });
    }
    expect((await poll(link, alice, `${link.binderCookie}`)).status).toBe(401);
    const unknown = { ...link, handle: 'A'.repeat(43) };
    expect((await poll(unknown, alice)).body).toEqual(NOT_FOUND);
    expect((await poll(link, alice)).body).toEqual({ status: 'pending' });
  });

  it('expires: the wallet can no longer answer and the poll says expired', async () => {
    const link = await startLink(bob);
    const wallet = await walletOf(fixture.issuer, 'bob-8');
    const received = await wallet.receive(link.invocationUri);
    await sql.query(
      `UPDATE wallet.presentation_requests SET expires_at = now() - interval '1 second' WHERE handle = $1`,
      [link.handle],
    );
    const late = await postForm(
      received.responseUri,
      new URLSearchParams({ state: received.state, vp_token: await wallet.presentation(received) }),
    );
    expect(late.status).toBe(400);
    expect((await poll(link, bob)).body).toEqual({
      status: 'expired',
      message: 'The request expired. Start again.',
    });
    expect(await linkedCredentials(bob.userId)).toEqual([]);
  });
});

describe('an answer read too late', () => {
  it('is expired, and its presentation is never verified or linked', async () => {
    const link = await startLink(bob);
    const wallet = await walletOf(fixture.issuer, 'bob-10');
    expect((await wallet.respond(link.invocationUri)).status).toBe(200);
    await sql.query(
      `UPDATE wallet.presentation_requests SET expires_at = now() - interval '2 minutes' WHERE handle = $1`,
      [link.handle],
    );
    expect((await poll(link, bob)).body).toEqual({
      status: 'expired',
      message: 'The request expired. Start again.',
    });
    expect(await linkedCredentials(bob.userId)).toEqual([]);
  });
});

describe('POST /oid4vp/response', () => {
  it('refuses repeated fields, unknown states and malformed vp_tokens with invalid_request', async () => {
    const link = await startLink(bob);
    const wallet = await walletOf(fixture.issuer, 'bob-9');
    const received = await wallet.receive(link.invocationUri);
    const vpToken = await wallet.presentation(received);
    const url = received.responseUri;
    const bodies = [
      `state=${received.state}&state=${received.state}&vp_token=${encodeURIComponent(vpToken)}`,
      `vp_token=${encodeURIComponent(vpToken)}`,
      `state=${'A'.repeat(43)}&vp_token=${encodeURIComponent(vpToken)}`,
      `state=${received.state}&vp_token=not-json`,
      `state=${received.state}&vp_token=${encodeURIComponent(JSON.stringify({ other: ['a.b.c~d.e.f'] }))}`,
      `state=${received.state}&vp_token=${encodeURIComponent(vpToken)}&error=access_denied`,
    ];
    for (const body of bodies) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_request', statusCode: 400 });
    }
    const json = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(415);
    // None of the refused bodies consumed the request: the real answer still lands.
    expect(
      (await postForm(url, new URLSearchParams({ state: received.state, vp_token: vpToken }))).status,
    ).toBe(200);
  });
});

function leafClientId(): string {
  return `x509_hash:${createHash('sha256').update(Buffer.from(fixture.chain.leaf, 'base64')).digest('base64url')}`;
}
