import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One canned answer. A string body is sent as is; anything else as JSON. */
export interface CannedResponse {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface DocumentServerOptions {
  /** Answers the requests of paths without a canned response (404 without one). */
  handler?: RequestListener;
}

/**
 * A real HTTP server on loopback that serves documents the test sets per path (client
 * metadata documents, key sets) or answers through its own handler, and counts what reaches
 * it: TCP connections, request paths and Accept headers. A test can so show that a refused URL
 * was never even connected to. It listens on 127.0.0.1 and, where the host has IPv6 loopback,
 * on [::1] at the same port, so no URL spelling of loopback gets a connection past a check
 * unseen.
 */
export class TestDocumentServer {
  /** TCP connections accepted so far, on either loopback address. */
  connections = 0;
  /** Request targets (path and query) received, in order. */
  readonly paths: string[] = [];
  /** The Accept header of each request, in order. */
  readonly acceptHeaders: (string | undefined)[] = [];
  private readonly documents = new Map<string, CannedResponse>();
  private readonly requestCounts = new Map<string, number>();
  private readonly servers: Server[] = [];
  private boundPort = 0;

  private constructor(private readonly options: DocumentServerOptions) {}

  static async start(options: DocumentServerOptions = {}): Promise<TestDocumentServer> {
    const documents = new TestDocumentServer(options);
    const ipv4 = documents.createServer();
    await listen(ipv4, '127.0.0.1', 0);
    documents.servers.push(ipv4);
    documents.boundPort = (ipv4.address() as AddressInfo).port;
    const ipv6 = documents.createServer();
    const onIpv6 = await listen(ipv6, '::1', documents.boundPort).then(
      () => true,
      () => false,
    );
    if (onIpv6) documents.servers.push(ipv6);
    return documents;
  }

  get port(): number {
    return this.boundPort;
  }

  /** `http://127.0.0.1:<port>` */
  get origin(): string {
    return `http://127.0.0.1:${this.boundPort}`;
  }

  /** `http://127.0.0.1:<port><path>` */
  url(path: string): string {
    return `${this.origin}${path}`;
  }

  serve(path: string, response: CannedResponse): void {
    this.documents.set(path, response);
  }

  /** Requests received for `path` (without query). */
  requests(path: string): number {
    return this.requestCounts.get(path) ?? 0;
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map(closeServer));
  }

  private createServer(): Server {
    const server = createServer((request, response) => {
      this.paths.push(request.url ?? '');
      this.acceptHeaders.push(request.headers.accept);
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      this.requestCounts.set(path, (this.requestCounts.get(path) ?? 0) + 1);
      const canned = this.documents.get(path);
      if (canned) {
        const body = typeof canned.body === 'string' ? canned.body : JSON.stringify(canned.body);
        response.writeHead(canned.status ?? 200, { 'content-type': 'application/json', ...canned.headers });
        response.end(body);
      } else if (this.options.handler) {
        this.options.handler(request, response);
      } else {
        response.writeHead(404).end();
      }
    });
    server.on('connection', () => (this.connections += 1));
    return server;
  }
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
