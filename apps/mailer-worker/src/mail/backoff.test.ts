import { describe, expect, it } from 'vitest';
import { MAX_RETRY_DELAY_MS, cappedExponentialBackoff } from './backoff.js';

describe('capped exponential backoff', () => {
  it('doubles from the base delay and stops at the ceiling', () => {
    expect([1, 2, 3, 4].map((attempt) => cappedExponentialBackoff(attempt, 1000))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
    expect(cappedExponentialBackoff(11, 1000)).toBe(MAX_RETRY_DELAY_MS);
    expect(cappedExponentialBackoff(100, 1000)).toBe(MAX_RETRY_DELAY_MS);
  });

  it('covers about a day of outage over 100 attempts', () => {
    const total = Array.from({ length: 99 }, (_, index) => cappedExponentialBackoff(index + 1, 1000)).reduce(
      (sum, delay) => sum + delay,
      0,
    );
    expect(total / 3_600_000).toBeGreaterThan(22);
  });
});
