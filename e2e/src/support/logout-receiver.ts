import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A relying party's back-channel logout endpoint on loopback (OIDC Back-Channel Logout 1.0
 * section 2.5): it keeps every `logout_token` POSTed to it and answers 200. It can be stopped
 * (connections refused) and started again on the same port, as a receiver that was down.
 */
export class LogoutReceiver {
  readonly tokens: string[] = [];
  private server: Server | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<LogoutReceiver> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const receiver = new LogoutReceiver(port);
    await receiver.resume();
    return receiver;
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

  async resume(): Promise<void> {
    const server = createServer((request, response) => {
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
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
