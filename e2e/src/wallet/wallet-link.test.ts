import { describe, expect, it } from 'vitest';
import { postForm } from '../support/test-wallet.js';
import { INVALID_CSRF, NOT_FOUND, useWalletLinkScene, walletOf } from './wallet-link-scene.js';

// interface.md 4.2 wallet linking and the 4.9 OID4VP transport, end to end through the gateway with a
// test wallet (docs/wallet.md #2-8, #14; docs/decisions.md #17-19, #25): starting a flow, the request
// object, linking. The scene is wallet-link-scene.ts.
const scene = await useWalletLinkScene();
const { context, fixture, startLink, poll, decide, linkedCredentials, leafClientId } = scene;

describe('POST /auth/link/wallet', () => {
  it('starts a flow: handle, invocation URI, expiry and a host-only binder cookie', async () => {
    const before = Date.now();
    const response = await fetch(context.url('/auth/link/wallet'), {
      method: 'POST',
      headers: { cookie: scene.alice.cookie, 'x-csrf-token': scene.alice.csrfToken },
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
    // docs/wallet.md #17: the handle the browser polls with is not the request_uri's.
    const requestUri = invocation.searchParams.get('request_uri')!;
    expect(requestUri).toMatch(new RegExp(`^${context.url('/oid4vp/request/')}[A-Za-z0-9_-]{43}$`));
    expect(requestUri).not.toContain(body.handle as string);
    expect(invocation.searchParams.get('client_id')).toBe(leafClientId());
  });

  it('answers 401 without a session and 400 invalid_csrf_token without the right header', async () => {
    const noSession = await fetch(context.url('/auth/link/wallet'), { method: 'POST' });
    expect(noSession.status).toBe(401);
    expect(await noSession.json()).toEqual({ error: 'Unauthorized', statusCode: 401, code: 'UNAUTHORIZED' });
    const unknownSession = await fetch(context.url('/auth/link/wallet'), {
      method: 'POST',
      headers: { cookie: `__Host-service_session=${'0'.repeat(64)}`, 'x-csrf-token': scene.alice.csrfToken },
    });
    expect(unknownSession.status).toBe(401);
    for (const headers of [{}, { 'x-csrf-token': scene.bob.csrfToken }] as Record<string, string>[]) {
      const response = await fetch(context.url('/auth/link/wallet'), {
        method: 'POST',
        headers: { cookie: scene.alice.cookie, ...headers },
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(await response.json()).toEqual(INVALID_CSRF);
    }
  });
});

describe('GET /oid4vp/request/{handle}', () => {
  it('serves the signed request object once, with x5c = leaf + intermediate', async () => {
    const link = await startLink(scene.alice);
    const url = new URL(link.invocationUri).searchParams.get('request_uri')!;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/oauth-authz-req+jwt');
    expect(first.headers.get('cache-control')).toBe('no-store');
    // docs/wallet.md #20: served once; the flow is still pending.
    const again = await fetch(url);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual(NOT_FOUND);
    expect((await poll(link, scene.alice)).body).toEqual({ status: 'pending' });
    const wallet = await walletOf(fixture.issuer, 'alice-subject');
    const received = await wallet.receive((await startLink(scene.alice)).invocationUri);
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
    expect(exp as number).toBeGreaterThan(Date.now() / 1000 + 290);
    expect(exp as number).toBeGreaterThan(iat as number);
  });

  it('gives unknown, malformed and expired handles, and flow ids, the same bare 404', async () => {
    const link = await startLink(scene.alice);
    const transport = new URL(link.invocationUri).searchParams.get('request_uri')!.split('/').at(-1)!;
    const live = await startLink(scene.alice);
    await scene.expireLink(link.handle, 1);
    for (const handle of [transport, live.handle, 'A'.repeat(43), 'not-a-handle', 'x'.repeat(500)]) {
      const response = await fetch(context.url(`/oid4vp/request/${handle}`));
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(NOT_FOUND);
    }
    expect(scene.notFoundBody).toEqual(NOT_FOUND);
  });
});

describe('linking a wallet credential end to end', () => {
  it('links after a verified presentation and the confirmation; the response is single use; polls stay linked', async () => {
    const link = await startLink(scene.alice);
    const wallet = await walletOf(fixture.issuer, 'alice-subject', 'alice@wallet.example');
    const posted = await wallet.respond(link.invocationUri);
    expect(posted.status).toBe(200);
    // OID4VP 1.0 section 8.2, docs/wallet.md #18: the redirect_uri with a response code.
    expect(JSON.parse(posted.body)).toEqual({
      redirect_uri: expect.stringMatching(
        new RegExp(`^${context.url('/ui/wallet-return')}\\?response_code=[A-Za-z0-9_-]{43}$`),
      ),
    });
    // Correlated but not yet verified: nothing is linked until the outcome is read.
    expect(await linkedCredentials(scene.alice.userId)).toEqual([]);

    const replay = await postForm(posted.request.responseUri, posted.form);
    expect(replay.status).toBe(400);
    expect(JSON.parse(replay.body)).toMatchObject({ error: 'invalid_request', statusCode: 400 });

    // Verified, shown to the starting browser, and linked only once it confirms (docs/wallet.md #16).
    expect(await poll(link, scene.alice)).toEqual({
      status: 200,
      body: {
        status: 'presented',
        presented: { issuer: 'https://issuer.example', email: 'alice@wallet.example' },
      },
      cacheControl: 'no-store',
    });
    expect(await linkedCredentials(scene.alice.userId)).toEqual([]);
    expect(await decide(link, scene.alice)).toEqual({
      status: 200,
      body: { status: 'linked', message: 'The wallet credential is linked to your account.' },
    });
    expect((await poll(link, scene.alice)).body.status).toBe('linked');
    expect(await linkedCredentials(scene.alice.userId)).toEqual([
      { user_id: scene.alice.userId, issuer: 'https://issuer.example', email: 'alice@wallet.example' },
    ]);
    // The answered request is no longer served, and the presentation is not kept.
    expect((await fetch(new URL(link.invocationUri).searchParams.get('request_uri')!)).status).toBe(404);
    const { rows } = await scene.sql.query(
      `SELECT vp_token, presented, status FROM wallet.presentation_requests WHERE flow_id = $1`,
      [link.handle],
    );
    expect(rows).toEqual([{ vp_token: null, presented: null, status: 'linked' }]);

    // Linking the same credential again is idempotent for the same user.
    const again = await startLink(scene.alice);
    await wallet.respond(again.invocationUri);
    expect((await poll(again, scene.alice)).body.status).toBe('presented');
    expect((await decide(again, scene.alice)).body.status).toBe('linked');
    expect(await linkedCredentials(scene.alice.userId)).toHaveLength(1);
  });

  it('answers conflict when another account holds the credential, linking nothing', async () => {
    const link = await startLink(scene.bob);
    const wallet = await walletOf(fixture.issuer, 'alice-subject');
    await wallet.respond(link.invocationUri);
    expect((await poll(link, scene.bob)).body.status).toBe('presented');
    expect((await decide(link, scene.bob)).body).toEqual({
      status: 'conflict',
      message: 'This wallet credential is already linked to another account.',
    });
    expect(await linkedCredentials(scene.bob.userId)).toEqual([]);
    expect(await linkedCredentials(scene.alice.userId)).toHaveLength(1);
  });
});
