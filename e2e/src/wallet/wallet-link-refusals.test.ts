import { describe, expect, it } from 'vitest';
import { BINDER_COOKIE } from '@authz/gateway';
import { postForm, type TestWallet } from '../support/test-wallet.js';
import { EXPIRED, NOT_FOUND, REJECTED, useWalletLinkScene, walletOf } from './wallet-link-scene.js';

// interface.md 4.2 wallet linking through the gateway (docs/decisions.md #17-19, #25): presentations that
// must not be trusted, flows that are not this browser's or no longer open, and malformed
// answers at /oid4vp/response. The scene is wallet-link-scene.ts.
const scene = await useWalletLinkScene();
const { fixture, startLink, poll, linkedCredentials } = scene;

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
    const link = await startLink(scene.bob);
    const posted = await wallet.respond(link.invocationUri, options);
    expect(posted.status).toBe(200);
    expect(await poll(link, scene.bob)).toEqual({ status: 200, body: REJECTED, cacheControl: 'no-store' });
    expect((await poll(link, scene.bob)).body).toEqual(REJECTED);
    expect(await linkedCredentials(scene.bob.userId)).toEqual([]);
  });

  it('rejects a wallet that declines', async () => {
    const link = await startLink(scene.bob);
    const wallet = await walletOf(fixture.issuer, 'bob-7');
    const { state, responseUri } = await wallet.receive(link.invocationUri);
    const declined = await postForm(responseUri, new URLSearchParams({ state, error: 'access_denied' }));
    expect(declined.status).toBe(200);
    expect(Object.keys(JSON.parse(declined.body))).toEqual(['redirect_uri']);
    expect((await poll(link, scene.bob)).body).toEqual(REJECTED);
  });
});

describe('flows that are not this browser’s or no longer open', () => {
  it('refuses another user’s session and a missing or foreign binder, leaving the flow intact', async () => {
    const link = await startLink(scene.alice);
    const bobs = await startLink(scene.bob);
    for (const cookies of [
      `${scene.bob.cookie}; ${link.binderCookie}`,
      scene.alice.cookie,
      `${scene.alice.cookie}; ${bobs.binderCookie}`,
      `${scene.alice.cookie}; ${BINDER_COOKIE}=${'0'.repeat(64)}`,
    ]) {
      expect(await poll(link, scene.alice, cookies)).toEqual({
        status: 404,
        body: NOT_FOUND,
        cacheControl: 'no-store',
      });
    }
    expect((await poll(link, scene.alice, `${link.binderCookie}`)).status).toBe(401);
    const unknown = { ...link, handle: 'A'.repeat(43) };
    expect((await poll(unknown, scene.alice)).body).toEqual(NOT_FOUND);
    expect((await poll(link, scene.alice)).body).toEqual({ status: 'pending' });
  });

  it('expires: the wallet can no longer answer and the poll says expired', async () => {
    const link = await startLink(scene.bob);
    const wallet = await walletOf(fixture.issuer, 'bob-8');
    const received = await wallet.receive(link.invocationUri);
    await scene.expireLink(link.handle, 1);
    const late = await postForm(
      received.responseUri,
      new URLSearchParams({ state: received.state, vp_token: await wallet.presentation(received) }),
    );
    expect(late.status).toBe(400);
    expect((await poll(link, scene.bob)).body).toEqual(EXPIRED);
    expect(await linkedCredentials(scene.bob.userId)).toEqual([]);
  });
});

describe('a confirmation sent too late', () => {
  it('is expired, and nothing is linked', async () => {
    const link = await startLink(scene.bob);
    const wallet = await walletOf(fixture.issuer, 'bob-11');
    expect((await wallet.respond(link.invocationUri)).status).toBe(200);
    expect((await poll(link, scene.bob)).body.status).toBe('presented');
    await scene.expireLink(link.handle, 120);
    expect((await poll(link, scene.bob)).body).toEqual(EXPIRED);
    expect(await scene.decide(link, scene.bob)).toEqual({ status: 200, body: EXPIRED });
    expect(await linkedCredentials(scene.bob.userId)).toEqual([]);
  });

  it('from another session, binder or without the CSRF header: refused, the flow intact', async () => {
    const link = await startLink(scene.bob);
    const wallet = await walletOf(fixture.issuer, 'bob-12');
    await wallet.respond(link.invocationUri);
    expect((await poll(link, scene.bob)).body.status).toBe('presented');
    expect(await scene.decide(link, scene.alice)).toEqual({ status: 404, body: NOT_FOUND });
    const foreign = { ...link, binderCookie: `${BINDER_COOKIE}=${'0'.repeat(64)}` };
    expect(await scene.decide(foreign, scene.bob)).toEqual({ status: 404, body: NOT_FOUND });
    const noCsrf = await fetch(scene.context.url(`/auth/link/wallet/${link.handle}/confirm`), {
      method: 'POST',
      headers: { cookie: `${scene.bob.cookie}; ${link.binderCookie}` },
    });
    expect(noCsrf.status).toBe(400);
    expect(await linkedCredentials(scene.bob.userId)).toEqual([]);
    expect((await poll(link, scene.bob)).body.status).toBe('presented');
  });
});

describe('an answer read too late', () => {
  it('is expired, and its presentation is never verified or linked', async () => {
    const link = await startLink(scene.bob);
    const wallet = await walletOf(fixture.issuer, 'bob-10');
    expect((await wallet.respond(link.invocationUri)).status).toBe(200);
    await scene.expireLink(link.handle, 120);
    expect((await poll(link, scene.bob)).body).toEqual(EXPIRED);
    expect(await linkedCredentials(scene.bob.userId)).toEqual([]);
  });
});

describe('POST /oid4vp/response', () => {
  it('refuses repeated fields, unknown states and malformed vp_tokens with invalid_request', async () => {
    const link = await startLink(scene.bob);
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
