import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundFetch, type OutboundPolicy } from './index.js';
import { TestDocumentServer } from '../testing/document-server.js';

// The fetch handed to openid-client for upstream OpenID Providers (docs/federation.md #4):
// any method, headers and body, every status answered, under the rules of the CIMD fetches.
const strict: OutboundPolicy = { maxBytes: 1024, timeoutMs: 5_000, allowInsecureLoopback: false };
const loopbackAllowed: OutboundPolicy = { ...strict, allowInsecureLoopback: true };

describe('outboundFetch', () => {
  let server: TestDocumentServer;
  const received: { method: string; authorization: string; body: string }[] = [];
  beforeAll(async () => {
    server = await TestDocumentServer.start({
      handler: (request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          received.push({
            method: request.method ?? '',
            authorization: request.headers.authorization ?? '',
            body: Buffer.concat(chunks).toString('utf8'),
          });
          if (request.url === '/moved') return response.writeHead(302, { location: '/token' }).end();
          if (request.url === '/big') return response.writeHead(200).end('x'.repeat(4096));
          const status = request.url === '/token' ? 400 : 200;
          response.writeHead(status, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
        });
      },
    });
  });
  afterAll(() => server.close());

  it('sends the method, headers and body, and answers error statuses with their body', async () => {
    const fetch = outboundFetch(loopbackAllowed);
    const response = await fetch(`${server.origin}/token`, {
      method: 'POST',
      headers: new Headers({
        authorization: 'Basic abc',
        'content-type': 'application/x-www-form-urlencoded',
      }),
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'c+d' }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ error: 'invalid_grant' });
    expect(received.at(-1)).toEqual({
      method: 'POST',
      authorization: 'Basic abc',
      body: 'grant_type=authorization_code&code=c%2Bd',
    });
  });

  it('follows no redirect, refuses loopback without the test policy and caps the body', async () => {
    const fetch = outboundFetch(loopbackAllowed);
    expect((await fetch(`${server.origin}/moved`)).status).toBe(302);
    const before = server.connections;
    await expect(outboundFetch(strict)(`https://127.0.0.1:${server.port}/jwks`)).rejects.toMatchObject({
      reason: 'address',
    });
    await expect(outboundFetch(strict)(`${server.origin}/jwks`)).rejects.toMatchObject({ reason: 'url' });
    await expect(fetch('http://idp.example/jwks')).rejects.toMatchObject({ reason: 'url' });
    expect(server.connections).toBe(before);
    await expect(fetch(`${server.origin}/big`)).rejects.toMatchObject({ reason: 'too_large' });
  });
});
