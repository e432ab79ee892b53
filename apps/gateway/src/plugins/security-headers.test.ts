import http from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELMET_OPTIONS, securityHeadersPlugin } from './security-headers.js';

/** What the gateway did before the headers were precomputed: @fastify/helmet on every request. */
async function withHelmetPlugin(app: FastifyInstance): Promise<void> {
  await app.register(helmet, HELMET_OPTIONS);
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}

/** Routes covering what the gateway's routes do with headers. */
function addRoutes(app: FastifyInstance): void {
  app.get('/json', async () => ({ ok: true }));
  app.get('/html', async (_request, reply) => reply.type('text/html; charset=utf-8').send('<p>page</p>'));
  app.get('/cacheable', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').send({}),
  );
  app.get('/cross-origin', async (_request, reply) =>
    reply.header('cross-origin-resource-policy', 'cross-origin').send({}),
  );
  app.get('/fails', async () => {
    throw new Error('boom');
  });
  app.post('/redirect', async (_request, reply) => reply.redirect('https://client.example/cb?code=x', 303));
}

async function build(
  plugin: (app: FastifyInstance) => Promise<void>,
  options: { trustProxy?: boolean } = {},
): Promise<FastifyInstance> {
  const app = Fastify(options);
  await plugin(app);
  addRoutes(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

/** The header lines as sent on the wire (names spelled and ordered as sent), minus Date. */
function headerLines(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string> = {},
) {
  const { port } = app.server.address() as AddressInfo;
  return new Promise<{ status: number; lines: string[] }>((resolve, reject) => {
    const options = { host: '127.0.0.1', port, method, path, headers, agent: false };
    const request = http.request(options, (response) => {
      const lines: string[] = [];
      for (let i = 0; i < response.rawHeaders.length; i += 2) {
        if (response.rawHeaders[i]!.toLowerCase() !== 'date')
          lines.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`);
      }
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode!, lines }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('security headers', () => {
  let before: FastifyInstance;
  let after: FastifyInstance;
  let behindProxy: FastifyInstance;

  beforeAll(async () => {
    before = await build(withHelmetPlugin);
    const withPlugin = async (app: FastifyInstance) => {
      await app.register(securityHeadersPlugin);
    };
    after = await build(withPlugin);
    behindProxy = await build(withPlugin, { trustProxy: true });
  });

  afterAll(async () => {
    await Promise.all([before.close(), after.close(), behindProxy.close()]);
  });

  it.each([
    ['GET', '/json'],
    ['GET', '/html'],
    ['GET', '/cacheable'],
    ['GET', '/cross-origin'],
    ['GET', '/fails'],
    ['GET', '/nowhere'],
    ['POST', '/redirect'],
  ] as const)('%s %s answers exactly what @fastify/helmet answered', async (method, url) => {
    const expected = await headerLines(before, method, url);
    const actual = await headerLines(after, method, url);
    expect(actual).toEqual(expected);
    expect(actual.lines).toContain('X-Frame-Options: DENY');
  });

  it('keeps the strict policy: no inline script, no framing, no referrer', async () => {
    const { lines } = await headerLines(after, 'GET', '/html');
    expect(lines).toEqual(
      expect.arrayContaining([
        "Content-Security-Policy: default-src 'none';style-src 'self';img-src 'self' data:;form-action 'self';frame-ancestors 'none';base-uri 'none'",
        'Referrer-Policy: no-referrer',
        'Cross-Origin-Resource-Policy: same-site',
        'X-Content-Type-Options: nosniff',
        'cache-control: no-store',
      ]),
    );
  });

  // RFC 6797 section 7.2: never over plain http, always over https.
  it.each(['/json', '/html', '/fails', '/nowhere'])('%s: HSTS only over https', async (path) => {
    const plain = await headerLines(after, 'GET', path);
    expect(plain.lines.filter((line) => /^strict-transport-security:/i.test(line))).toEqual([]);
    const https = await headerLines(behindProxy, 'GET', path, { 'x-forwarded-proto': 'https' });
    expect(https.lines).toContain('Strict-Transport-Security: max-age=31536000; includeSubDomains');
  });

  it('ignores X-Forwarded-Proto from a client that is not a trusted proxy', async () => {
    const { lines } = await headerLines(after, 'GET', '/json', { 'x-forwarded-proto': 'https' });
    expect(lines.filter((line) => /^strict-transport-security:/i.test(line))).toEqual([]);
  });
});
