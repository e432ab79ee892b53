import argon2 from 'argon2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConcurrencyLimiter, type ConcurrencyLimiter } from './concurrency-limiter.js';
import { createPasswordHasher } from './password-hasher.js';

const cost = { memoryCost: 1024, timeCost: 1, parallelism: 1 };
const limiter = () => createConcurrencyLimiter({ concurrency: 2, queue: 8, retryAfterSeconds: 1 });

afterEach(() => vi.restoreAllMocks());

// docs/decisions.md #4: an unknown email costs what a wrong password costs. Shown without timing:
// both paths run exactly one argon2id verify, against hashes of identical parameters.
describe('password hasher', () => {
  it('verifies an unknown account against a dummy hash of the same cost', async () => {
    const hasher = await createPasswordHasher(cost, limiter());
    const stored = await hasher.hash('a fine passphrase');
    const verify = vi.spyOn(argon2, 'verify');

    expect(await hasher.verify(stored, 'not the one')).toBe(false);
    expect(await hasher.verify(undefined, 'not the one')).toBe(false);

    expect(verify).toHaveBeenCalledTimes(2);
    const [knownHash, dummyHash] = verify.mock.calls.map(([hash]) => hash);
    const parameters = (hash: string) => hash.split('$').slice(1, 4).join('$');
    expect(parameters(dummyHash!)).toBe('argon2id$v=19$m=1024,t=1,p=1');
    expect(parameters(dummyHash!)).toBe(parameters(knownHash!));
    expect(dummyHash).not.toBe(knownHash);
  });

  it('accepts the right password, NFKC-normalised, and never a dummy match', async () => {
    const hasher = await createPasswordHasher(cost, limiter());
    const stored = await hasher.hash('ﬁne passphrase');
    expect(await hasher.verify(stored, 'fine passphrase')).toBe(true);
    expect(await hasher.verify(undefined, 'fine passphrase')).toBe(false);
  });

  it('runs every argon2id call, the dummy hash included, inside the limiter (docs/identity.md #16)', async () => {
    const inner = limiter();
    let outsideLimiter = 0;
    let inside = false;
    for (const name of ['hash', 'verify'] as const) {
      const original = argon2[name].bind(argon2) as (...args: unknown[]) => Promise<unknown>;
      vi.spyOn(argon2, name).mockImplementation(((...args: unknown[]) => {
        if (!inside) outsideLimiter += 1;
        return original(...args);
      }) as never);
    }
    let runs = 0;
    const counting: ConcurrencyLimiter = {
      run: (task) =>
        inner.run(() => {
          runs += 1;
          inside = true;
          const started = task();
          inside = false;
          return started;
        }),
    };
    const hasher = await createPasswordHasher(cost, counting);
    const stored = await hasher.hash('a fine passphrase');
    await hasher.verify(stored, 'a fine passphrase');
    await hasher.verify(undefined, 'a fine passphrase');
    expect(runs).toBe(4);
    expect(outsideLimiter).toBe(0);
  });
});
