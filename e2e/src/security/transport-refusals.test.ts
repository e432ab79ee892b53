import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';

// docs/errors.md: what Node's HTTP parser and Fastify's router refuse before any route runs
// answers the envelope of interface.md 7, over a raw socket since no HTTP client sends it.
const context = useSuite();

interface RawResponse {
  statusLine: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Writes `request` on a fresh connection and parses what arrives before it closes. */
async function sendRaw(request: string): Promise<RawResponse> {
  const { hostname, port } = new URL(context.suite.baseUrl);
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(request));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { statusLine, headers, body: JSON.parse(body) as unknown };
}

const JSON_TYPE = 'application/json; charset=utf-8';

describe('refusals before any route (interface.md 7, docs/errors.md)', () => {
  it('a 20 KB header: 431 with the envelope and no message', async () => {
    const response = await sendRaw(
      `GET /health HTTP/1.1\r\nHost: gateway\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(response).toMatchObject({
      statusLine: 'HTTP/1.1 431 Request Header Fields Too Large',
      headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', connection: 'close' },
    });
    expect(response.body).toEqual({
      error: 'Request header fields too large',
      statusCode: 431,
      code: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
    });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([
    ['a request line without a target or version', 'GARBAGE\r\n\r\n'],
    ['an unknown HTTP version', 'GET / HTTP/9.9\r\nHost: gateway\r\n\r\n'],
    ['a header line without a colon', 'GET /health HTTP/1.1\r\nHost: gateway\r\nno colon here\r\n\r\n'],
  ])('%s: 400 MALFORMED_REQUEST', async (_name, request) => {
    const response = await sendRaw(request);
    expect(response).toMatchObject({
      statusLine: 'HTTP/1.1 400 Bad Request',
      headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store', connection: 'close' },
    });
    expect(response.body).toEqual({ error: 'Malformed request', statusCode: 400, code: 'MALFORMED_REQUEST' });
  });

  it('a path that does not percent-decode (/%): the 400 validation envelope naming (url)', async () => {
    const response = await sendRaw('GET /% HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\n\r\n');
    expect(response).toMatchObject({
      statusLine: 'HTTP/1.1 400 Bad Request',
      headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store' },
    });
    expect(response.body).toEqual({
      error: 'Validation error',
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      details: [{ path: '(url)', message: 'is not a valid URL' }],
    });
  });
});
