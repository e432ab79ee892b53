import { describe, expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';

// docs/security.md "Enumeration": an unknown address and a wrong password cost the same,
// because both run one argon2id verification (docs/decisions.md #4: a dummy hash for unknown
// users). Tolerant by design: interleaved samples, medians, and a generous bound, which a
// missing dummy hash (no argon2id at all for unknown users) still breaks by a wide margin.
// The production cost makes the hash dominate the request.
const context = useSuite({
  gatewayEnv: { RATE_LIMIT_ENABLED: 'false' },
  serviceEnv: { ARGON2_MEMORY_KIB: '19456', ARGON2_ITERATIONS: '2', ARGON2_PARALLELISM: '1' },
});

const SAMPLES = 30;
const PASSWORD = 'amber-Falcon-meadow-27';

async function timedLogin(email: string, password: string): Promise<number> {
  const started = performance.now();
  const response = await context.suite.gateway.app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { email, password },
  });
  const elapsed = performance.now() - started;
  expect(response.statusCode).toBe(401);
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[middle]!;
}

describe('login timing', () => {
  it('does not tell an unknown address from a wrong password', async () => {
    const email = `timing${Date.now()}@example.com`;
    const registered = await context.suite.gateway.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { email, password: PASSWORD },
    });
    expect(registered.statusCode).toBe(201);
    const unknown: number[] = [];
    const wrong: number[] = [];
    // Warm-up, then alternate so that load on the machine hits both kinds alike.
    await timedLogin(`nobody-${email}`, PASSWORD);
    await timedLogin(email, `${PASSWORD}-wrong`);
    for (let sample = 0; sample < SAMPLES; sample += 1) {
      unknown.push(await timedLogin(`nobody${sample}-${email}`, PASSWORD));
      wrong.push(await timedLogin(email, `${PASSWORD}-${sample}`));
    }
    const ratio = median(unknown) / median(wrong);
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1 / 0.6);
  }, 60_000);
});
