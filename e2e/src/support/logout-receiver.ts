import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A relying party's back-channel logout endpoint on loopback (OIDC Back-Channel Logout 1.0
 * section 2.5): it keeps every `logout_token` POSTed to it and answers 200. It can be taken
 * down (`stop`: every connection is reset) and brought back (`resume`) as a receiver that was
 * unreachable for a while. The port stays bound throughout, so no other process can take it
 * while the receiver is down.
 */
export class LogoutReceiver {
  readonly tokens: string[] = [];
  private down = false;

  private constructor(private readonly server: Server) {
    server.on('connection', (socket) => {
      if (this.down) socket.destroy();
    });
  }

  static async start(): Promise<LogoutReceiver> {
    const receiver = new LogoutReceiver(
      createServer((request, response) => receiver.receive(request, response)),
    );
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get uri(): string {
    return `http://127.0.0.1:${this.port}/backchannel-logout`;
  }

  /** Resolves with the first token that arrives after `count` tokens, polling until `timeoutMs`. */
  async waitForToken(count: number, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (this.tokens.length <= count) {
      if (Date.now() > deadline) throw new Error(`no logout token within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.tokens[count]!;
  }

  /** Unreachable from now on: open connections are cut and new ones reset. */
  stop(): void {
    this.down = true;
    this.server.closeAllConnections();
  }

  resume(): void {
    this.down = false;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private receive(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const token = form.get('logout_token');
      const accepted =
        request.method === 'POST' &&
        request.url === '/backchannel-logout' &&
        request.headers['content-type'] === 'application/x-www-form-urlencoded' &&
        token !== null;
      if (accepted) this.tokens.push(token);
      response.writeHead(accepted ? 200 : 400, { 'cache-control': 'no-store' }).end();
    });
  }
}
