import { connect, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { loadGatewayEnv } from '@authz/gateway';
import { useSuite } from '../support/use-suite.js';

// docs/security.md #6: slow or silent clients (slowloris) cannot hold the gateway's sockets.
const context = useSuite({
  gatewayEnv: {
    HTTP_HEADERS_TIMEOUT_MS: '300',
    HTTP_REQUEST_TIMEOUT_MS: '600',
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '4000',
  },
});

/** A raw connection to the gateway that records what it receives and when it closes. */
async function rawConnection(): Promise<{ socket: Socket; received: () => string; closed: () => boolean }> {
  const { hostname, port } = new URL(context.suite.baseUrl);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let text = '';
  let ended = false;
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('close', () => (ended = true));
  socket.on('error', () => (ended = true));
  return { socket, received: () => text, closed: () => ended };
}

async function expectTimedOut(connection: Awaited<ReturnType<typeof rawConnection>>): Promise<void> {
  await vi.waitFor(() => expect(connection.closed()).toBe(true), { timeout: 10_000, interval: 50 });
  expect(connection.received()).toMatch(/^(HTTP\/1\.1 408 |$)/);
}

describe('slow requests (RFC 9110 15.5.9)', () => {
  it('closes a connection whose headers never finish', async () => {
    const connection = await rawConnection();
    connection.socket.write('GET / HTTP/1.1\r\nHost: gateway\r\nX-Slow: ');
    await expectTimedOut(connection);
  });

  it('closes a connection whose body never finishes', async () => {
    const connection = await rawConnection();
    connection.socket.write(
      'POST /auth/login HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
    );
    await expectTimedOut(connection);
  });

  it('tells keep-alive clients how long an idle connection stays open', async () => {
    const response = await fetch(context.url('/'));
    expect(response.headers.get('keep-alive')).toBe('timeout=4');
  });
});

describe('slow-request settings', () => {
  const base = { REDIS_URL: 'redis://127.0.0.1:6379' };

  it('default to bounded values', () => {
    expect(loadGatewayEnv(base).http).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
      connectionTimeoutMs: 120_000,
    });
  });

  it('refuse a headers timeout longer than the request timeout', () => {
    expect(() =>
      loadGatewayEnv({ ...base, HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' }),
    ).toThrow(/HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS/);
  });
});
