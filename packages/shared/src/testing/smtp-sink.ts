import { SMTPServer } from 'smtp-server';
import { findLinks, parseMail } from '../mail/mime.js';

export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  text: string | undefined;
  html: string | undefined;
  links: string[];
  raw: string;
}

/**
 * A real SMTP server for tests: collects every message, and can be stopped and started on
 * the same port to show that mail queued while it was down is delivered afterwards.
 */
export class TestSmtpSink {
  readonly messages: CapturedMail[] = [];
  private server: SMTPServer | undefined;
  private waiters: (() => void)[] = [];

  private constructor(public port: number) {}

  /** Starts on `port`, or on a free port when 0. */
  static async start(port = 0): Promise<TestSmtpSink> {
    const sink = new TestSmtpSink(port);
    await sink.start();
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.capture(Buffer.concat(chunks), session.envelope);
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    const address = server.server.address();
    if (typeof address === 'object' && address) this.port = address.port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The first message (already received or still to come) that satisfies `predicate`. */
  async waitFor(predicate: (mail: CapturedMail) => boolean, timeoutMs = 20_000): Promise<CapturedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error('no matching mail arrived in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(remaining, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private capture(
    raw: Buffer,
    envelope: { mailFrom: false | { address: string }; rcptTo: { address: string }[] },
  ) {
    const parsed = parseMail(raw);
    this.messages.push({
      from: envelope.mailFrom ? envelope.mailFrom.address : '',
      to: envelope.rcptTo.map((recipient) => recipient.address),
      subject: parsed.subject,
      text: parsed.text,
      html: parsed.html,
      links: findLinks(parsed.text ?? ''),
      raw: raw.toString('utf8'),
    });
    for (const wake of this.waiters.splice(0)) wake();
  }
}
