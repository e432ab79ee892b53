import { RateLimitedError, ServiceUnavailableError } from '@authz/shared/errors';
import { describe, expect, it } from 'vitest';
import { useStubbedGateway } from '../../test/stub-upstreams.js';
import { errorPageCopy, humanDuration, styleSheetHrefFrom } from './error-page.js';

// docs/hosted-pages.md "Errors the gateway renders": a hosted page never answers JSON.
const gateway = useStubbedGateway();

describe('the error page of the hosted pages', () => {
  it('links the stylesheet relative to the page, whatever prefix an ingress strips', () => {
    const resolved = (url: string) => new URL(styleSheetHrefFrom(url), `https://id.example${url}`).pathname;
    for (const url of ['/ui', '/ui/', '/ui/login', '/ui/login?handle=x/y', '/ui/wallet-link/abc', '/ui/a/b/'])
      expect(resolved(url)).toBe('/ui/assets/style.css');
  });

  it('says how long to wait in words', () => {
    expect([1, 1.2, 45, 60, 61, 3600, 7201].map(humanDuration)).toEqual([
      '1 second',
      '2 seconds',
      '45 seconds',
      '1 minute',
      '2 minutes',
      '1 hour',
      '3 hours',
    ]);
    expect(errorPageCopy(new RateLimitedError({ attributes: { retryAfterSeconds: '90' } }))).toEqual({
      title: 'Too many attempts',
      text: 'There have been too many attempts in a short time. Wait 2 minutes and try again.',
    });
  });

  it('renders an unreachable consent-ui as a 503 page with Retry-After, never JSON', async () => {
    gateway.stubs.hostedPages = {
      renderPage: async () => {
        throw new ServiceUnavailableError({ attributes: { retryAfterSeconds: '5' } });
      },
    };
    const response = await gateway.app.inject({ method: 'GET', url: '/ui/login?handle=abc' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['retry-after']).toBe('5');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain('<title>Temporarily unavailable</title>');
    expect(response.body).toContain('<link rel="stylesheet" href="assets/style.css" />');
    expect(response.body).toContain(
      '<p>The service is busy or briefly unavailable. Try again in a moment.</p>',
    );
    expect(response.body).not.toContain('abc');
  });

  it('renders what no route takes under /ui/ as the 404 page, and leaves other paths JSON', async () => {
    const page = await gateway.app.inject({ method: 'PUT', url: '/ui/no/such/page' });
    expect([page.statusCode, page.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
    expect(page.body).toContain('<h1>Page not found</h1>');
    expect(page.body).toContain('href="../../assets/style.css"');
    const api = await gateway.app.inject({ method: 'GET', url: '/no/such/route' });
    expect([api.statusCode, api.json()]).toEqual([
      404,
      { error: 'Not found', statusCode: 404, code: 'NOT_FOUND' },
    ]);
  });
});
