import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPublicDocument, type OutboundPolicy } from './index.js';
import { startTestDocumentServer, type TestDocumentServer } from '../testing/outbound-document-server.js';

const strict: OutboundPolicy = { maxBytes: 65_536, timeoutMs: 5_000, allowInsecureLoopback: false };
const loopbackAllowed: OutboundPolicy = { ...strict, allowInsecureLoopback: true };

describe('fetchPublicDocument address rules', () => {
  let server: TestDocumentServer;
  beforeAll(async () => {
    server = await startTestDocumentServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  afterAll(() => server.close());

  it.each(['127.0.0.1', 'localhost', '[::1]', '[::ffff:127.0.0.1]', '2130706433', '0x7f.1'])(
    'refuses loopback https://%s without allowInsecureLoopback, and nothing connects',
    async (host) => {
      const before = server.connections;
      await expect(fetchPublicDocument(`https://${host}:${server.port}/`, strict)).rejects.toMatchObject({
        reason: 'address',
      });
      expect(server.connections).toBe(before);
    },
  );

  it('still refuses IPv4-mapped loopback under allowInsecureLoopback, and nothing connects', async () => {
    const before = server.connections;
    const failure = fetchPublicDocument(`https://[::ffff:127.0.0.1]:${server.port}/`, loopbackAllowed);
    await expect(failure).rejects.toMatchObject({ reason: 'address' });
    expect(server.connections).toBe(before);
  });

  it('counts the connection when loopback is allowed (the control for the tests above)', async () => {
    const before = server.connections;
    await fetchPublicDocument(`${server.origin}/`, loopbackAllowed);
    expect(server.connections).toBe(before + 1);
  });

  // Each would hang or fail as 'timeout' / 'network' if a connection were attempted.
  it.each([
    'https://10.0.0.1/x',
    'https://172.16.0.1/',
    'https://192.168.1.1/',
    'https://169.254.169.254/latest/meta-data/',
    'https://100.64.0.1/',
    'https://0.0.0.0/',
    'https://224.0.0.1/',
    'https://255.255.255.255/',
    'https://192.0.2.1/',
    'https://240.0.0.1/',
    'https://[::]/',
    'https://[fe80::1]/',
    'https://[fc00::1]/',
    'https://[fd12:3456::1]/',
    'https://[ff02::1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[::ffff:169.254.169.254]/',
    'https://[64:ff9b::a00:1]/',
    'https://[2002:a00:1::]/',
    'https://[::127.0.0.1]/',
    'https://[::10.0.0.1]/',
  ])('refuses %s before connecting', async (url) => {
    await expect(fetchPublicDocument(url, strict)).rejects.toMatchObject({ reason: 'address' });
  });

  it('refuses private addresses under allowInsecureLoopback too', async () => {
    await expect(fetchPublicDocument('https://10.0.0.1/x', loopbackAllowed)).rejects.toMatchObject({
      reason: 'address',
    });
  });
});
