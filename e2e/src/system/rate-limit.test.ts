import { describe, expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';

const context = useSuite({
  gatewayEnv: { DEFAULT_RATE_LIMIT: '3', DEFAULT_RATE_WINDOW: '60', TRUST_PROXY: '127.0.0.1' },
});

const get = (path: string, clientIp: string) =>
  fetch(context.url(path), { headers: { 'x-forwarded-for': clientIp } });

describe('per-IP rate limiting in Redis', () => {
  it('answers 429 with Retry-After and the envelope once the budget is spent', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await get('/', '203.0.113.7')).status).toBe(200);
    const limited = await get('/', '203.0.113.7');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await limited.json()).toEqual({
      error: 'Too many requests',
      statusCode: 429,
      code: 'RATE_LIMITED',
    });
  });

  it('counts each client address behind a trusted proxy separately', async () => {
    expect((await get('/', '203.0.113.8')).status).toBe(200);
  });

  it('never limits /health or /metrics', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await get('/health', '203.0.113.7')).status).toBe(200);
      expect((await get('/metrics', '203.0.113.7')).status).toBe(200);
    }
  });
});
