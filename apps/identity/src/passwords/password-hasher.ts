import argon2 from 'argon2';
import { randomHexToken } from '@authz/shared/crypto';
import type { ConcurrencyLimiter } from './concurrency-limiter.js';
import { normalizePassword } from './password-policy.js';

export interface Argon2Cost {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** Checks `password` against `storedHash`, or against a dummy hash when there is none, at the same cost. */
  verify(storedHash: string | undefined, password: string): Promise<boolean>;
}

/**
 * argon2id with the cost from the environment (docs/decisions.md #4). The dummy hash is made once
 * with the same parameters, so an unknown email costs what a wrong password costs. Every hash
 * and verify, the dummy's included, waits for a slot of `limiter` (docs/identity.md #16), so an
 * unknown email also queues and is refused exactly like a known one.
 */
export async function createPasswordHasher(
  cost: Argon2Cost,
  limiter: ConcurrencyLimiter,
): Promise<PasswordHasher> {
  const options = { type: argon2.argon2id, ...cost };
  const dummyHash = await limiter.run(() => argon2.hash(randomHexToken(), options));
  return {
    hash: (password) => limiter.run(() => argon2.hash(normalizePassword(password), options)),
    async verify(storedHash, password) {
      const matches = await limiter.run(() =>
        argon2.verify(storedHash ?? dummyHash, normalizePassword(password)),
      );
      return storedHash !== undefined && matches;
    },
  };
}
