import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One canned answer. A string body is sent as is; anything else as JSON. */
export interface CannedResponse {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

/**
 * A real HTTP server on 127.0.0.1 that serves documents the test sets per path (client
 * metadata documents, key sets), counting requests and TCP connections, so a test can show
 * that a refused URL was never even connected to.
 */
export class TestDocumentServer {
  private readonly documents = new Map<string, CannedResponse>();
  private readonly requestCounts = new Map<string, number>();
  /** TCP connections accepted so far. */
  connections = 0;

  private constructor(private readonly server: Server) {
    server.on('connection', () => (this.connections += 1));
    server.on('request', (request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      this.requestCounts.set(path, (this.requestCounts.get(path) ?? 0) + 1);
      const canned = this.documents.get(path);
      if (!canned) {
        response.writeHead(404).end();
        return;
      }
      const body = typeof canned.body === 'string' ? canned.body : JSON.stringify(canned.body);
      response.writeHead(canned.status ?? 200, { 'content-type': 'application/json', ...canned.headers });
      response.end(body);
    });
  }

  static async start(): Promise<TestDocumentServer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new TestDocumentServer(server);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `http://127.0.0.1:<port><path>` */
  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  serve(path: string, response: CannedResponse): void {
    this.documents.set(path, response);
  }

  requests(path: string): number {
    return this.requestCounts.get(path) ?? 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
