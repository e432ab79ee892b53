import { describe, expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';

// RFC 9700 4.13 (docs/security.md #1): without TRUST_PROXY, X-Forwarded-* headers are the
// client's own words and change nothing: a spoofed address earns no fresh budget.
const context = useSuite({ gatewayEnv: { DEFAULT_RATE_LIMIT: '2', DEFAULT_RATE_WINDOW: '60' } });

describe('X-Forwarded-For from an untrusted peer', () => {
  it('does not split the per-IP budget', async () => {
    const statuses: number[] = [];
    for (const spoofed of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
      const response = await fetch(context.url('/'), { headers: { 'x-forwarded-for': spoofed } });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});
