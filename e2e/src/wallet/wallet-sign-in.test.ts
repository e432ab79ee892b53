import { SignInStatus } from '@authz/proto/walletbridge/v1/walletbridge';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestWallet } from '../support/test-wallet.js';
import { SIGN_IN_ORIGIN as ORIGIN, useWalletSignInScene } from '../support/wallet-test-setup.js';

// Wallet sign-in (interface.md 2.6, 4.5; docs/wallet.md #8, #13) at the gRPC contract the hosted pages use,
// with the wallet answering through the gateway. The flows run on a second wallet-bridge
// replica sharing the suite's database: the service keeps no state of its own.
const scene = await useWalletSignInScene({ name: 'alice' });
const { fixture, context, startSignIn, readAndConfirm } = scene;

beforeAll(() => {
  // The credential was linked through the public API: the poll saw it presented.
  expect(scene.linkPolled).toBe('presented');
});

describe('WalletFlowService sign-in', () => {
  it('starts a flow with a handle, invocation URI, expiry and binder', async () => {
    const flow = await startSignIn();
    expect(flow.handle).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(flow.binder).toMatch(/^[0-9a-f]{64}$/);
    // docs/wallet.md #17: the flow's handle is not the request_uri's.
    const requestUri = new URL(flow.invocationUri).searchParams.get('request_uri')!;
    expect(requestUri).toMatch(new RegExp(`^${context.url('/oid4vp/request/')}[A-Za-z0-9_-]{43}$`));
    expect(requestUri).not.toContain(flow.handle);
    expect(Number(flow.expiresAt) - Date.now()).toBeGreaterThan(295_000);
  });

  it('signs the linked account in once the response has verified and the browser confirmed, exactly once', async () => {
    const flow = await startSignIn();
    const read = () =>
      scene.flows.getSignInOutcome({ handle: flow.handle, binder: flow.binder, origin: ORIGIN });
    const confirm = () =>
      scene.flows.confirmSignIn({ handle: flow.handle, binder: flow.binder, confirm: true, origin: ORIGIN });
    expect((await read()).status).toBe(SignInStatus.PENDING);
    expect((await confirm()).outcome!.status).toBe(SignInStatus.REFUSED);
    expect((await scene.wallet.respond(flow.invocationUri)).status).toBe(200);

    const presented = await read();
    expect(presented.status).toBe(SignInStatus.PRESENTED);
    expect(presented.signedIn).toBeUndefined();
    expect(presented.presented).toMatchObject({
      issuer: 'https://issuer.example',
      email: 'alice@wallet.example',
    });
    expect((await read()).status).toBe(SignInStatus.PRESENTED);
    const outcome = (await confirm()).outcome!;
    expect(outcome.status).toBe(SignInStatus.SIGNED_IN);
    const signedIn = outcome.signedIn!;
    expect(signedIn.userId).toBe(scene.user.userId);
    expect(signedIn.sessionToken).toMatch(/^[0-9a-f]{64}$/);
    // The session is a real browser session: the consents API accepts its cookie.
    const consents = await fetch(context.url('/consents/'), {
      headers: { cookie: `__Host-service_session=${signedIn.sessionToken}` },
    });
    expect(consents.status).toBe(200);
    expect(await consents.json()).toEqual({ consents: [], csrfToken: signedIn.csrfToken });

    // Delivered once: a second read or confirmation (a replay) is the uniform refusal.
    for (const replayed of [await read(), (await confirm()).outcome!]) {
      expect(replayed.status).toBe(SignInStatus.REFUSED);
      expect(replayed.signedIn).toBeUndefined();
    }
  });

  it('delivers a sign-in to one of concurrent confirmations only', async () => {
    const flow = await startSignIn();
    await scene.wallet.respond(flow.invocationUri);
    const reads = await Promise.all(
      [1, 2, 3].map(() => scene.flows.getSignInOutcome({ handle: flow.handle, binder: flow.binder })),
    );
    expect(reads.filter((read) => read.status === SignInStatus.PRESENTED).length).toBeGreaterThanOrEqual(1);
    expect(reads.filter((read) => read.signedIn !== undefined)).toHaveLength(0);
    const confirms = await Promise.all(
      [1, 2, 3].map(() =>
        scene.flows.confirmSignIn({
          handle: flow.handle,
          binder: flow.binder,
          confirm: true,
          origin: ORIGIN,
        }),
      ),
    );
    expect(confirms.filter(({ outcome }) => outcome?.status === SignInStatus.SIGNED_IN)).toHaveLength(1);
    expect(confirms.filter(({ outcome }) => outcome?.signedIn !== undefined)).toHaveLength(1);
  });

  it('signs nobody in after a cancel', async () => {
    const flow = await startSignIn();
    await scene.wallet.respond(flow.invocationUri);
    expect((await scene.flows.getSignInOutcome({ handle: flow.handle, binder: flow.binder })).status).toBe(
      SignInStatus.PRESENTED,
    );
    const cancel = await scene.flows.confirmSignIn({
      handle: flow.handle,
      binder: flow.binder,
      confirm: false,
    });
    expect(cancel.outcome!.status).toBe(SignInStatus.REFUSED);
    const late = await scene.flows.confirmSignIn({ handle: flow.handle, binder: flow.binder, confirm: true });
    expect(late.outcome!.status).toBe(SignInStatus.REFUSED);
    expect((await scene.flows.getSignInOutcome({ handle: flow.handle, binder: flow.binder })).status).toBe(
      SignInStatus.REFUSED,
    );
  });

  it('yields the same sub on a later sign-in', async () => {
    const flow = await startSignIn();
    await scene.wallet.respond(flow.invocationUri);
    const outcome = await readAndConfirm(flow);
    expect(outcome.signedIn?.userId).toBe(scene.user.userId);
  });

  it('refuses a credential linked to no account, a wrong binder, a wrong nonce and an untrusted issuer alike', async () => {
    const stranger = await TestWallet.create(fixture.issuer, { sub: 'nobody' });
    const untrusted = await TestWallet.create(fixture.untrusted, { sub: 'alice-subject' });
    const attempts: [TestWallet, Parameters<TestWallet['respond']>[1]][] = [
      [stranger, {}],
      [untrusted, {}],
      [scene.wallet, { nonce: 'not-the-nonce' }],
      [scene.wallet, { audience: 'x509_hash:other' }],
    ];
    for (const [wallet, options] of attempts) {
      const flow = await startSignIn();
      expect((await wallet.respond(flow.invocationUri, options)).status).toBe(200);
      const outcome = await readAndConfirm(flow);
      expect(outcome.status).toBe(SignInStatus.REFUSED);
      expect(outcome.signedIn).toBeUndefined();
    }
    const flow = await startSignIn();
    await scene.wallet.respond(flow.invocationUri);
    for (const binder of ['', '0'.repeat(64)]) {
      expect((await readAndConfirm(flow, binder)).status).toBe(SignInStatus.REFUSED);
    }
    // The wrong binders consumed nothing: the right browser still signs in.
    expect((await readAndConfirm(flow)).status).toBe(SignInStatus.SIGNED_IN);
  });

  it('refuses a link flow read as a sign-in, and an unknown handle', async () => {
    const { flow } = await scene.flows.startLink({
      sessionToken: scene.user.sessionToken,
      csrfToken: scene.user.csrfToken,
    });
    await scene.wallet.respond(flow!.invocationUri);
    expect((await readAndConfirm(flow!)).status).toBe(SignInStatus.REFUSED);
    expect(
      (await scene.flows.getSignInOutcome({ handle: 'A'.repeat(43), binder: flow!.binder })).status,
    ).toBe(SignInStatus.REFUSED);
  });
});
