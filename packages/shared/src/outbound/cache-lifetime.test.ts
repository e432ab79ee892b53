import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { cacheLifetimeSeconds } from './index.js';

const bounds = { minSeconds: 60, maxSeconds: 86_400 };

function lifetime(headers: IncomingHttpHeaders, limits = bounds): number {
  return cacheLifetimeSeconds({ status: 200, headers, body: Buffer.from('{}') }, limits);
}

describe('cacheLifetimeSeconds', () => {
  it('follows max-age', () => {
    expect(lifetime({ 'cache-control': 'max-age=120' })).toBe(120);
  });

  it('raises a short max-age to minSeconds', () => {
    expect(lifetime({ 'cache-control': 'max-age=10' })).toBe(60);
  });

  it('caps a long max-age at maxSeconds', () => {
    expect(lifetime({ 'cache-control': 'max-age=999999' })).toBe(86_400);
  });

  it.each([
    ['no-store', { 'cache-control': 'no-store, max-age=600' }],
    ['no-cache', { 'cache-control': 'no-cache, max-age=600' }],
    ['private (shared cache)', { 'cache-control': 'private, max-age=600' }],
    ['no caching headers', {}],
    ['only Last-Modified (no heuristic freshness)', { 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT' }],
  ])('gives minSeconds for %s', (_case, headers: IncomingHttpHeaders) => {
    expect(lifetime(headers)).toBe(60);
  });

  it('prefers s-maxage, as a shared cache does', () => {
    expect(lifetime({ 'cache-control': 's-maxage=300, max-age=100' })).toBe(300);
  });

  it('subtracts the age the response already has', () => {
    expect(lifetime({ 'cache-control': 'max-age=600', age: '100' })).toBe(500);
  });

  it('reads Expires against the server Date', () => {
    const headers = { date: 'Mon, 01 Jan 2024 00:00:00 GMT', expires: 'Mon, 01 Jan 2024 00:10:00 GMT' };
    expect(lifetime(headers)).toBe(600);
  });
});
