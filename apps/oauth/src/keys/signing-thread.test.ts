import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SigningThread, SigningThreadError } from './signing-thread.js';

const first = generateKeyPairSync('ed25519').privateKey;
const second = generateKeyPairSync('ed25519').privateKey;

/** The signature the thread must answer: node:crypto's, made here, synchronously. */
function expected(input: string, key: KeyObject): string {
  return sign(null, Buffer.from(input, 'ascii'), key).toString('base64url');
}

describe('SigningThread', () => {
  let thread: SigningThread;
  afterEach(() => thread.stop());

  it('answers each signature of a burst with its own input and key, whatever the order', async () => {
    thread = new SigningThread();
    const requests = Array.from({ length: 60 }, (_, index) => ({
      input: `eyJhbGciOiJFZERTQSJ9.${Buffer.from(`{"n":${index}}`).toString('base64url')}`,
      key: index % 3 === 0 ? second : first,
    }));
    const signatures = await Promise.all(requests.map(({ input, key }) => thread.sign(input, key)));
    expect(signatures).toEqual(requests.map(({ input, key }) => expected(input, key)));
    expect(new Set(signatures).size).toBe(60);
  });

  it('keeps signing across turns, with keys handed over earlier and new ones', async () => {
    thread = new SigningThread();
    expect(await thread.sign('a.b', first)).toBe(expected('a.b', first));
    expect(await thread.sign('c.d', first)).toBe(expected('c.d', first));
    expect(await thread.sign('e.f', second)).toBe(expected('e.f', second));
  });

  it('fails only the signature whose key cannot sign; the rest of its burst is signed', async () => {
    thread = new SigningThread();
    const x25519 = generateKeyPairSync('x25519').privateKey;
    const [good, bad, alsoGood] = await Promise.allSettled([
      thread.sign('a.b', first),
      thread.sign('a.b', x25519),
      thread.sign('c.d', second),
    ]);
    expect(good).toEqual({ status: 'fulfilled', value: expected('a.b', first) });
    expect(bad.status).toBe('rejected');
    expect((bad as PromiseRejectedResult).reason).toBeInstanceOf(SigningThreadError);
    expect(alsoGood).toEqual({ status: 'fulfilled', value: expected('c.d', second) });
  });

  it('fails a burst whose key cannot be handed over, and keeps signing the next ones', async () => {
    thread = new SigningThread();
    const notCloneable = { sign: () => 'not a KeyObject' } as unknown as KeyObject;
    const burst = await Promise.allSettled([thread.sign('a.b', first), thread.sign('a.b', notCloneable)]);
    expect(burst.map(({ status }) => status)).toEqual(['rejected', 'rejected']);
    expect((burst[0] as PromiseRejectedResult).reason).toBeInstanceOf(SigningThreadError);
    // `first` did not reach the thread with that message: it is handed over again.
    expect(await thread.sign('c.d', first)).toBe(expected('c.d', first));
  });

  it('rejects what is in flight when the thread stops, then signs on a new thread', async () => {
    thread = new SigningThread();
    expect(await thread.sign('warm.up', first)).toBe(expected('warm.up', first));
    const inFlight = Promise.allSettled(Array.from({ length: 5 }, () => thread.sign('a.b', first)));
    // The burst has left for the thread (after this turn) but has not been answered yet.
    await new Promise((resolve) => setImmediate(resolve));
    await thread.stop();
    const stopped = new SigningThreadError('The signing thread was stopped');
    expect(await inFlight).toEqual(
      Array.from({ length: 5 }, () => ({ status: 'rejected', reason: stopped })),
    );
    // The new thread holds no key yet: the key is handed over again.
    expect(await thread.sign('after.stop', first)).toBe(expected('after.stop', first));
  });
});
