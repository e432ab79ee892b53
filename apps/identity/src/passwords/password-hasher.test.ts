import argon2 from 'argon2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPasswordHasher } from './password-hasher.js';

const cost = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

afterEach(() => vi.restoreAllMocks());

// docs/decisions.md #4: an unknown email costs what a wrong password costs. Shown without timing:
// both paths run exactly one argon2id verify, against hashes of identical parameters.
describe('password hasher', () => {
  it('verifies an unknown account against a dummy hash of the same cost', async () => {
    const hasher = await createPasswordHasher(cost);
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
    const hasher = await createPasswordHasher(cost);
    const stored = await hasher.hash('ﬁne passphrase');
    expect(await hasher.verify(stored, 'fine passphrase')).toBe(true);
    expect(await hasher.verify(undefined, 'fine passphrase')).toBe(false);
  });
});
