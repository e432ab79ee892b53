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
  const answered = async () => {
    const created = await store().create(request());
    await store().answer(created.state, { status: STATUS.answered, vpToken }, new Date());
    return created;
  };

  describe(`${name} (PresentationRequestStore contract)`, () => {
    it('stores a pending request as given and finds it by handle', async () => {
      const input = request({ purpose: 'link', userId: randomUUID() });
      const created = await store().create(input);
      expect(created).toEqual({
        ...input,
        status: STATUS.pending,
        vpToken: null,
        answeredAt: null,
        settledAt: null,
      });
      expect(await store().findByHandle(input.handle)).toEqual(created);
      expect(await store().findByHandle(id())).toBeUndefined();
    });

    it('finds a pending request only while it is pending and unexpired', async () => {
      const live = await store().create(request());
      const now = new Date();
      expect(await store().findPending(live.handle, now)).toEqual(live);
      expect(await store().findPending(live.handle, new Date(live.expiresAt.getTime() + 1))).toBeUndefined();
      await store().answer(live.state, { status: STATUS.declined, vpToken: null }, now);
      expect(await store().findPending(live.handle, now)).toBeUndefined();
    });

    it('takes one answer per request, by state, before its expiry', async () => {
      const created = await store().create(request());
      const now = new Date(Math.floor(Date.now() / 1000) * 1000);
      const past = new Date(created.expiresAt.getTime() + 1);
      expect(await store().answer(created.state, { status: STATUS.answered, vpToken }, past)).toBe(false);
      const results = await Promise.all([
        store().answer(created.state, { status: STATUS.answered, vpToken }, now),
        store().answer(created.state, { status: STATUS.declined, vpToken: null }, now),
      ]);
      expect(results.filter(Boolean)).toEqual([true]);
      const stored = await store().findByHandle(created.handle);
      expect(stored?.answeredAt).toEqual(now);
      expect([stored?.status, stored?.vpToken]).toEqual(
        results[0] ? [STATUS.answered, vpToken] : [STATUS.declined, null],
      );
      expect(await store().answer(id(), { status: STATUS.answered, vpToken }, now)).toBe(false);
    });

    it('lets one reader claim an answered request; release puts it back', async () => {
      const created = await answered();
      expect(await store().claim((await store().create(request())).handle)).toBe(false);
      const claims = await Promise.all([store().claim(created.handle), store().claim(created.handle)]);
      expect(claims.sort()).toEqual([false, true]);
      expect((await store().findByHandle(created.handle))?.status).toBe(STATUS.settling);
      await store().release(created.handle);
      expect(await store().findByHandle(created.handle)).toMatchObject({ status: STATUS.answered, vpToken });
      expect(await store().claim(created.handle)).toBe(true);
    });

    it('settles with a final status and erases the presentation', async () => {
      const created = await answered();
      await store().claim(created.handle);
      const at = new Date('2030-01-01T00:02:00.000Z');
      await store().settle(created.handle, STATUS.signedIn, at);
      expect(await store().findByHandle(created.handle)).toMatchObject({
        status: STATUS.signedIn,
        vpToken: null,
        settledAt: at,
      });
      expect(await store().claim(created.handle)).toBe(false);
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
