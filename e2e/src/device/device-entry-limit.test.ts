import { describe, expect, it } from 'vitest';
import { useCodeFlow } from '../support/code-flow.js';
import { FormBrowser, type BrowserResponse } from '@authz/shared/testing/form-browser';
import { enterUserCode } from './device-scene.js';

// docs/device-grant.md #4 and RFC 8628 section 5.1: user codes are short, so the gateway limits
// their entry per address before oauth sees them; an IPv6 address counts under its /64
// (docs/security.md #11). A trusted proxy names the client address.
const flow = useCodeFlow({
  DEVICE_CODE_ENTRY_RATE_LIMIT: '3',
  DEVICE_CODE_ENTRY_RATE_WINDOW: '300',
  TRUST_PROXY: '127.0.0.1',
});

const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
let entries = 0;

/** A different unknown code each time, so only the address budget can refuse it. */
function enterFrom(ip: string): Promise<BrowserResponse> {
  entries += 1;
  const typed = `BCDF-GH${ALPHABET[Math.floor(entries / 20) % 20]}${ALPHABET[entries % 20]}`;
  return enterUserCode(flow, new FormBrowser(), typed, { 'x-forwarded-for': ip });
}

/** The gateway's page (docs/hosted-pages.md "Errors the gateway renders"), as sent. */
function expectRateLimitedPage(response: BrowserResponse): void {
  expect(response.status).toBe(429);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const wait = Number(response.headers.get('retry-after'));
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(300);
  const minutes = Math.ceil(wait / 60);
  const said =
    wait < 60 ? `${wait} second${wait === 1 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  expect(response.text).toContain('<title>Too many attempts</title>');
  expect(response.text).toContain('<h1>Too many attempts</h1>');
  expect(response.text).toContain(
    `<p>There have been too many attempts in a short time. Wait ${said} and try again.</p>`,
  );
}

describe('POST /ui/device per-address budget', () => {
  it('answers the 429 page once an address spent its budget, other addresses unaffected', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await enterFrom('203.0.113.20')).status).toBe(400);
    }
    expectRateLimitedPage(await enterFrom('203.0.113.20'));
    expect((await enterFrom('203.0.113.21')).status).toBe(400);
  });

  it('counts an IPv6 address under its /64', async () => {
    for (const host of ['1', '2', 'abcd:1234']) {
      expect((await enterFrom(`2001:db8:5:6::${host}`)).status).toBe(400);
    }
    expectRateLimitedPage(await enterFrom('2001:db8:5:6:ffff:ffff:ffff:ffff'));
    // The next /64 of the same site has a budget of its own.
    expect((await enterFrom('2001:db8:5:7::1')).status).toBe(400);
  });
});
