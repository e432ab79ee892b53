import { connect, type AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientErrorHandler } from './error-handler.js';

// interface.md 7: what Node's HTTP parser refuses answers the API envelope, exactly.
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = Fastify({ clientErrorHandler: clientErrorHandler([['x-frame-options', 'DENY']]) });
  app.get('/', async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(() => app.close());

function sendRaw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(request));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

function expected(statusLine: string, body: string): string {
  return (
    `${statusLine}\r\nx-frame-options: DENY\r\ncache-control: no-store\r\n` +
    `content-type: application/json; charset=utf-8\r\ncontent-length: ${body.length}\r\n` +
    `connection: close\r\n\r\n${body}`
  );
}

describe('clientErrorHandler', () => {
  it('answers 431 for a header section over the limit', async () => {
    const response = await sendRaw(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(response).toBe(
      expected(
        'HTTP/1.1 431 Request Header Fields Too Large',
        '{"error":"Request header fields too large","statusCode":431,"code":"REQUEST_HEADER_FIELDS_TOO_LARGE"}',
      ),
    );
  });

  it('answers 400 MALFORMED_REQUEST for a bad request line', async () => {
    expect(await sendRaw('GARBAGE\r\n\r\n')).toBe(
      expected(
        'HTTP/1.1 400 Bad Request',
        '{"error":"Malformed request","statusCode":400,"code":"MALFORMED_REQUEST"}',
      ),
    );
  });
});
