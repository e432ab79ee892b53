import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm, type OutboundPolicy } from './index.js';
import { TestDocumentServer } from '../testing/document-server.js';

// The back-channel logout POST (docs/tokens.md #28) under the rules of the CIMD fetches.
const strict: OutboundPolicy = { maxBytes: 1024, timeoutMs: 5_000, allowInsecureLoopback: false };
const loopbackAllowed: OutboundPolicy = { ...strict, allowInsecureLoopback: true };

describe('postForm', () => {
  let server: TestDocumentServer;
  const received: { method: string; type: string; body: string }[] = [];
  beforeAll(async () => {
    server = await TestDocumentServer.start({
      handler: (request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          received.push({
            method: request.method ?? '',
            type: request.headers['content-type'] ?? '',
            body: Buffer.concat(chunks).toString('utf8'),
          });
          const status = request.url === '/gone' ? 410 : request.url === '/big' ? 200 : 204;
          response.writeHead(status).end(request.url === '/big' ? 'x'.repeat(4096) : undefined);
        });
      },
    });
  });
  afterAll(() => server.close());

  it('POSTs the fields form-encoded and resolves with any status', async () => {
    expect(await postForm(`${server.origin}/bc`, { logout_token: 'a.b+c' }, loopbackAllowed)).toEqual({
      status: 204,
    });
    expect(await postForm(`${server.origin}/gone`, { logout_token: 't' }, loopbackAllowed)).toEqual({
      status: 410,
    });
    expect(received[0]).toEqual({
      method: 'POST',
      type: 'application/x-www-form-urlencoded',
      body: 'logout_token=a.b%2Bc',
    });
  });

  it('refuses loopback without the test policy, plain http elsewhere, and an answer over the cap', async () => {
    const before = server.connections;
    await expect(postForm(`https://127.0.0.1:${server.port}/bc`, {}, strict)).rejects.toMatchObject({
      reason: 'address',
    });
    await expect(postForm(`${server.origin}/bc`, {}, strict)).rejects.toMatchObject({ reason: 'url' });
    await expect(postForm('http://rp.example/bc', {}, loopbackAllowed)).rejects.toMatchObject({
      reason: 'url',
    });
    expect(server.connections).toBe(before);
    await expect(postForm(`${server.origin}/big`, {}, loopbackAllowed)).rejects.toMatchObject({
      reason: 'too_large',
    });
  });
});
