import { once } from 'node:events';
import { SMTPServer } from 'smtp-server';
import { parseMail, type ParsedMail } from '@authz/shared/mail';

export interface ReceivedMail extends ParsedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  raw: string;
}

/**
 * A real SMTP server for tests (plain SMTP, no AUTH/STARTTLS) that keeps what it receives.
 * `stallData()` makes the next messages hang in the DATA phase until `releaseStalled()`.
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  private readonly server: SMTPServer;
  private stalling = false;
  private readonly stalled: Array<(error?: Error) => void> = [];
  private readonly waiters = new Set<() => void>();

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      closeTimeout: 100,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (this.stalling) {
            this.stalled.push((error) => callback(error ?? null));
            this.notify();
            return;
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          this.received.push({
            ...parseMail(raw),
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            envelopeTo: session.envelope.rcptTo.map(({ address }) => address),
            raw,
          });
          this.notify();
          callback();
        });
      },
    });
    this.server.on('error', () => undefined);
  }

  /** Listens on 127.0.0.1 (`port` 0: a free one) and returns the port. */
  async listen(port = 0): Promise<number> {
    const listener = this.server.listen(port, '127.0.0.1');
    await once(listener, 'listening');
    const address = listener.address();
    if (!address || typeof address === 'string') throw new Error('sink has no port');
    return address.port;
  }

  async close(): Promise<void> {
    this.releaseStalled(new Error('sink closing'));
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  stallData(): void {
    this.stalling = true;
  }

  /** Ends the stall: held messages get `error` as their DATA reply (451) or are dropped. */
  releaseStalled(error = new Error('connection lost')): void {
    this.stalling = false;
    for (const reply of this.stalled.splice(0)) reply(error);
  }

  get stalledCount(): number {
    return this.stalled.length;
  }

  /** Resolves once `condition()` holds, re-checked whenever the sink receives something. */
  async waitFor(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
    if (condition()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`sink: condition not met within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = () => {
        if (!condition()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  private notify(): void {
    for (const check of [...this.waiters]) check();
  }
}
