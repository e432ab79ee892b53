import { describe, expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';

// interface.md 4.10, docs/identity.md #18: POST /auth/forgot-password does the same work for
// a known and an unknown address (the limit check, one transaction locking the user row by
// address; only a real reset's inserts differ, and the mail leaves after the answer). Tolerant
// like login-timing.test.ts: interleaved samples, medians, a generous bound.
const context = useSuite({ gatewayEnv: { RATE_LIMIT_ENABLED: 'false' } });

const SAMPLES = 20;
const PASSWORD = 'amber-Falcon-meadow-27';

async function timedForgot(email: string): Promise<number> {
  const started = performance.now();
  const response = await context.suite.gateway.app.inject({
    method: 'POST',
    url: '/auth/forgot-password',
    payload: { email },
  });
  const elapsed = performance.now() - started;
  expect(response.statusCode).toBe(200);
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[middle]!;
}

describe('forgot-password timing', () => {
  it('does not tell a known address from an unknown one', async () => {
    const stamp = Date.now();
    const known = Array.from({ length: SAMPLES + 1 }, (_, index) => `known${index}-${stamp}@example.com`);
    for (const email of known) {
      const registered = await context.suite.gateway.app.inject({
        method: 'POST',
        url: '/auth/register',
        payload: { email, password: PASSWORD },
      });
      expect(registered.statusCode).toBe(201);
    }
    await timedForgot(known[SAMPLES]!);
    await timedForgot(`nobody-warm-${stamp}@example.com`);
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let sample = 0; sample < SAMPLES; sample += 1) {
      unknownTimes.push(await timedForgot(`nobody${sample}-${stamp}@example.com`));
      knownTimes.push(await timedForgot(known[sample]!));
    }
    const ratio = median(unknownTimes) / median(knownTimes);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  }, 90_000);
});
