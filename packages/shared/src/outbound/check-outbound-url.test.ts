import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPublicDocument, type OutboundPolicy } from './index.js';
import { startTestDocumentServer, type TestDocumentServer } from '../testing/outbound-document-server.js';

const strict: OutboundPolicy = { maxBytes: 65_536, timeoutMs: 5_000, allowInsecureLoopback: false };
const loopbackAllowed: OutboundPolicy = { ...strict, allowInsecureLoopback: true };

describe('fetchPublicDocument URL rules', () => {
  let server: TestDocumentServer;
  beforeAll(async () => {
    server = await startTestDocumentServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  afterAll(() => server.close());

  it('refuses http without allowInsecureLoopback, before connecting', async () => {
    await expect(fetchPublicDocument(`${server.origin}/`, strict)).rejects.toMatchObject({ reason: 'url' });
    expect(server.connections).toBe(0);
  });

  it.each(['http://10.0.0.1/', 'http://169.254.169.254/', 'http://example.com/', 'http://127.0.0.2/'])(
    'refuses http to %s even under allowInsecureLoopback',
    async (url) => {
      await expect(fetchPublicDocument(url, loopbackAllowed)).rejects.toMatchObject({ reason: 'url' });
    },
  );

  it.each([
    ['userinfo', 'https://user:secret@client.example/cimd'],
    ['a username alone', 'https://user@client.example/cimd'],
    ['a fragment', 'https://client.example/cimd#section'],
    ['an empty fragment', 'https://client.example/cimd#'],
    ['another scheme', 'ftp://client.example/cimd'],
    ['a relative reference', '/cimd'],
    ['garbage', 'not a url'],
  ])('refuses %s', async (_case, url) => {
    await expect(fetchPublicDocument(url, loopbackAllowed)).rejects.toMatchObject({ reason: 'url' });
  });
});
