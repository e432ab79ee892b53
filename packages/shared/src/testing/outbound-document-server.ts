import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on loopback that counts what reaches it, for the outbound tests. */
export interface TestDocumentServer {
  port: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** TCP connections accepted, on either loopback address. */
  connections: number;
  /** Request paths received, in order. */
  paths: string[];
  /** Accept header of each request, in order. */
  acceptHeaders: (string | undefined)[];
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 and, where the host has IPv6 loopback, on [::1] at the same port, so a
 * test can show that no URL spelling of loopback gets a connection through.
 */
export async function startTestDocumentServer(handler: RequestListener): Promise<TestDocumentServer> {
  const servers: Server[] = [];
  const state: TestDocumentServer = {
    port: 0,
    origin: '',
    connections: 0,
    paths: [],
    acceptHeaders: [],
    close: () => Promise.all(servers.map(closeServer)).then(() => undefined),
  };
  const create = () => {
    const server = createServer((request, response) => {
      state.paths.push(request.url ?? '');
      state.acceptHeaders.push(request.headers.accept);
      handler(request, response);
    });
    server.on('connection', () => (state.connections += 1));
    return server;
  };
  const ipv4 = create();
  await listen(ipv4, '127.0.0.1', 0);
  servers.push(ipv4);
  state.port = (ipv4.address() as AddressInfo).port;
  state.origin = `http://127.0.0.1:${state.port}`;
  const ipv6 = create();
  if (
    await listen(ipv6, '::1', state.port).then(
      () => true,
      () => false,
    )
  )
    servers.push(ipv6);
  return state;
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
