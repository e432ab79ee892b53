import { createConnection, createServer, type Server } from 'node:net';
import { HealthService, ServingStatus } from '@authz/proto/health/v1/health';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../logger/index.js';
import { GrpcChannel } from './channel.js';
import { GrpcServer } from './server.js';

// docs/decisions.md #26: servers end connections after a maximum age so that callers re-resolve
// and reach replicas added since; a caller under steady load must not notice it.
const server = new GrpcServer({
  serviceName: 'test',
  logger: createLogger({ service: 'test', level: 'silent' }),
  maxConnectionAgeMs: 300,
});
let proxy: Server;
let connections = 0;
let channel: GrpcChannel;

beforeAll(async () => {
  server.addService(HealthService, {
    async check() {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { status: ServingStatus.SERVING, dependencies: [] };
    },
  });
  const port = await server.listen('127.0.0.1', 0);
  // Counts the caller's TCP connections on their way to the server.
  proxy = createServer((socket) => {
    connections += 1;
    const upstream = createConnection({ host: '127.0.0.1', port });
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const address = proxy.address();
  if (typeof address !== 'object' || !address) throw new Error('no proxy port');
  channel = new GrpcChannel(`127.0.0.1:${address.port}`);
});
afterAll(async () => {
  channel?.close();
  await server.close();
  await new Promise((resolve) => proxy.close(resolve));
});

it('ends connections past their age without failing a call, and the caller connects again', async () => {
  const health = channel.service(HealthService);
  // Calls go on until the caller has needed three connections (two ended by age), or a
  // generous bound on a loaded machine; no call may fail meanwhile.
  const bound = Date.now() + 20_000;
  const failures: unknown[] = [];
  let calls = 0;
  const worker = async () => {
    while (connections < 3 && Date.now() < bound) {
      calls += 1;
      await health.check({}).catch((error: unknown) => failures.push(error));
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  expect(failures).toEqual([]);
  expect(connections).toBeGreaterThanOrEqual(3);
  expect(calls).toBeGreaterThan(connections);
});
