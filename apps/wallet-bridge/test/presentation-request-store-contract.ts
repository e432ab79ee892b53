import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { STATUS } from '../src/requests/presentation-request.js';
import type {
  NewPresentationRequest,
  PresentationRequestStore,
} from '../src/requests/presentation-request-store.js';

/** The behaviour every PresentationRequestStore must show (docs/conventions.md #7). */
export function describePresentationRequestStore(name: string, store: () => PresentationRequestStore): void {
  const id = () => randomBytes(32).toString('base64url');
  const request = (overrides: Partial<NewPresentationRequest> = {}): NewPresentationRequest => ({
    handle: id(),
    flowId: id(),
    purpose: 'sign_in',
    state: id(),
    nonce: id(),
    binderHash: 'binder-hash',
    userId: null,
    createdAt: new Date('2030-01-01T00:00:00.000Z'),
    expiresAt: new Date(Date.now() + 300_000),
    ...overrides,
  });
  const vpToken = 'issuer.jwt.sig~disclosure~kb.jwt.sig';
  const responseCodeHash = () => `code-hash-${id()}`;
  const yes = (vp: string) => ({
    status: STATUS.answered,
    vpToken: vp,
    responseCodeHash: responseCodeHash(),
  });
  const no = () => ({ status: STATUS.declined, vpToken: null, responseCodeHash: responseCodeHash() });
  const answered = async () => {
    const created = await store().create(request());
    await store().answer(created.state, yes(vpToken), new Date());
    return created;
  };

  describe(`${name} (PresentationRequestStore contract)`, () => {
    it('stores a pending request as given and finds it by handle and by flow id', async () => {
      const input = request({ purpose: 'link', userId: randomUUID() });
      const created = await store().create(input);
      expect(created).toEqual({
        ...input,
        status: STATUS.pending,
        vpToken: null,
        answeredAt: null,
        settledAt: null,
        servedAt: null,
        presented: null,
        responseCodeHash: null,
      });
      expect(await store().findByHandle(input.handle)).toEqual(created);
      expect(await store().findByFlowId(input.flowId)).toEqual(created);
      expect(await store().findByHandle(input.flowId)).toBeUndefined();
      expect(await store().findByFlowId(input.handle)).toBeUndefined();
      expect(await store().findByHandle(id())).toBeUndefined();
    });

    it('serves a pending, unexpired request once (docs/wallet.md #20)', async () => {
      const live = await store().create(request());
      const expired = await store().create(request());
      const now = new Date();
      expect(
        await store().serveOnce(expired.handle, new Date(expired.expiresAt.getTime() + 1)),
      ).toBeUndefined();
      const served = await Promise.all([
        store().serveOnce(live.handle, now),
        store().serveOnce(live.handle, now),
      ]);
      expect(served.filter((one) => one !== undefined)).toEqual([{ ...live, servedAt: now }]);
      expect(await store().serveOnce(live.handle, now)).toBeUndefined();
      const answered = await store().create(request());
      await store().answer(answered.state, no(), now);
      expect(await store().serveOnce(answered.handle, now)).toBeUndefined();
    });

    it('takes one answer per request, by state, before its expiry', async () => {
      const created = await store().create(request());
      const now = new Date(Math.floor(Date.now() / 1000) * 1000);
      const past = new Date(created.expiresAt.getTime() + 1);
      expect(await store().answer(created.state, yes(vpToken), past)).toBe(false);
      const results = await Promise.all([
        store().answer(created.state, yes(vpToken), now),
        store().answer(created.state, no(), now),
      ]);
      expect(results.filter(Boolean)).toEqual([true]);
      const stored = await store().findByHandle(created.handle);
      expect(stored?.answeredAt).toEqual(now);
      expect([stored?.status, stored?.vpToken]).toEqual(
        results[0] ? [STATUS.answered, vpToken] : [STATUS.declined, null],
      );
      expect(stored?.responseCodeHash).toMatch(/^code-hash-/);
      expect(await store().answer(id(), yes(vpToken), now)).toBe(false);
    });

    it('lets one reader claim an answered request; release puts it back', async () => {
      const created = await answered();
      const claim = () => store().claim(created.handle, STATUS.answered);
      expect(await store().claim((await store().create(request())).handle, STATUS.answered)).toBe(false);
      const claims = await Promise.all([claim(), claim()]);
      expect(claims.sort()).toEqual([false, true]);
      expect((await store().findByHandle(created.handle))?.status).toBe(STATUS.settling);
      await store().release(created.handle, STATUS.answered);
      expect(await store().findByHandle(created.handle)).toMatchObject({ status: STATUS.answered, vpToken });
      expect(await claim()).toBe(true);
    });

    it('keeps a presented credential until one decision claims or cancels it', async () => {
      const created = await answered();
      await store().claim(created.handle, STATUS.answered);
      await store().present(created.handle, '{"issuer":"i","subject":"s"}');
      expect(await store().findByHandle(created.handle)).toMatchObject({
        status: STATUS.presented,
        vpToken: null,
        presented: '{"issuer":"i","subject":"s"}',
      });
      const claims = await Promise.all([
        store().claim(created.handle, STATUS.presented),
        store().settle(created.handle, STATUS.cancelled, new Date(), STATUS.presented),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      const other = await answered();
      await store().claim(other.handle, STATUS.answered);
      await store().present(other.handle, '{}');
      expect(await store().settle(other.handle, STATUS.cancelled, new Date(), STATUS.presented)).toBe(true);
      expect(await store().findByHandle(other.handle)).toMatchObject({
        status: STATUS.cancelled,
        presented: null,
      });
      expect(await store().settle(other.handle, STATUS.cancelled, new Date(), STATUS.presented)).toBe(false);
    });

    it('redeems a response code once, by flow and hash', async () => {
      const created = await answered();
      const { responseCodeHash: hash } = (await store().findByHandle(created.handle))!;
      expect((await store().findByResponseCodeHash(hash!))?.handle).toBe(created.handle);
      expect(await store().redeemResponseCode(id(), hash!)).toBe(false);
      const redeemed = await Promise.all([
        store().redeemResponseCode(created.flowId, hash!),
        store().redeemResponseCode(created.flowId, hash!),
      ]);
      expect(redeemed.sort()).toEqual([false, true]);
      expect(await store().findByResponseCodeHash(hash!)).toBeUndefined();
    });

    it('settles with a final status and erases the presentation', async () => {
      const created = await answered();
      await store().claim(created.handle, STATUS.answered);
      const at = new Date('2030-01-01T00:02:00.000Z');
      await store().settle(created.handle, STATUS.signedIn, at);
      expect(await store().findByHandle(created.handle)).toMatchObject({
        status: STATUS.signedIn,
        vpToken: null,
        settledAt: at,
      });
      expect(await store().claim(created.handle, STATUS.answered)).toBe(false);
    });

    it('deletes only the requests that expired before the cutoff', async () => {
      const cutoff = new Date('2029-06-01T00:00:00.000Z');
      const old = await store().create(request({ expiresAt: new Date(cutoff.getTime() - 1) }));
      const recent = await store().create(request({ expiresAt: cutoff }));
      expect(await store().deleteExpiredBefore(cutoff)).toBeGreaterThanOrEqual(1);
      expect(await store().findByHandle(old.handle)).toBeUndefined();
      expect(await store().findByHandle(recent.handle)).toEqual(recent);
      expect(await store().deleteExpiredBefore(cutoff)).toBe(0);
    });
  });
}
