import type * as Dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fetchPublicDocument, type OutboundPolicy } from './index.js';
import { startTestDocumentServer, type TestDocumentServer } from '../testing/outbound-document-server.js';

// Canned DNS answers, so the test can show which resolved addresses the agent lets through.
const answers = vi.hoisted((): Record<string, { address: string; family: number }[]> => ({
  'mixed.test': [
    { address: '93.184.215.14', family: 4 },
    { address: '10.0.0.1', family: 4 },
  ],
  'metadata.test': [{ address: '169.254.169.254', family: 4 }],
  'mapped.test': [{ address: '::ffff:7f00:1', family: 6 }],
  'compatible.test': [{ address: '::7f00:1', family: 6 }],
  'loopback.test': [{ address: '127.0.0.1', family: 4 }],
}));

vi.mock('node:dns', async (importOriginal) => {
  const dns = await importOriginal<typeof Dns>();
  type Callback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;
  const lookup = (hostname: string, options: LookupOptions, callback: Callback) => {
    const canned = answers[hostname];
    if (!canned?.[0]) return dns.lookup(hostname, options, callback);
    process.nextTick(() =>
      options.all ? callback(null, canned) : callback(null, canned[0]!.address, canned[0]!.family),
    );
  };
  return { ...dns, default: { ...dns, lookup }, lookup };
});

const strict: OutboundPolicy = { maxBytes: 65_536, timeoutMs: 5_000, allowInsecureLoopback: false };

describe('fetchPublicDocument resolved-address rules', () => {
  let server: TestDocumentServer;
  beforeAll(async () => {
    server = await startTestDocumentServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  afterAll(() => server.close());

  it.each(['mixed.test', 'metadata.test', 'mapped.test', 'compatible.test', 'loopback.test'])(
    'refuses %s, whose answers include an address that is not public, and nothing connects',
    async (host) => {
      const before = server.connections;
      await expect(fetchPublicDocument(`https://${host}:${server.port}/`, strict)).rejects.toMatchObject({
        reason: 'address',
      });
      expect(server.connections).toBe(before);
    },
  );

  it('connects to the resolved address when it is allowed (the control for the tests above)', async () => {
    const policy = { ...strict, allowInsecureLoopback: true };
    const before = server.connections;
    const document = await fetchPublicDocument(`https://loopback.test:${server.port}/`, policy).catch(
      (error: unknown) => error,
    );
    // The server speaks plain http, so TLS fails; what matters is that the connection was made.
    expect(document).toMatchObject({ reason: 'network' });
    expect(server.connections).toBe(before + 1);
  });
});
