import { SMTPServer } from 'smtp-server';
import { findLinks, parseMail, type ParsedMail } from '../mail/mime.js';

/** A message as the sink received it: the parsed message, its envelope and its links. */
export interface ReceivedMail extends ParsedMail {
  /** MAIL FROM of the envelope ('' for the null sender). */
  envelopeFrom: string;
  /** RCPT TO of the envelope, in order. */
  envelopeTo: string[];
  /** The links of the text part; of the HTML part only when there is no text part. */
  links: string[];
  raw: string;
}

export interface SmtpSinkOptions {
  /** 0 (the default): a free port, kept across stop() and start(). */
  port?: number;
  /** The greeting's text. */
  banner?: string;
  /** How long close waits for open connections before ending them, in milliseconds. */
  closeTimeoutMs?: number;
  /** Called with every message received. */
  onMessage?: (mail: ReceivedMail) => void;
  /** Whether `received` keeps the messages (true by default; a long-running sink may not). */
  keepMessages?: boolean;
  /** Errors of the server once listening (a client dropping mid-command, say). */
  onError?: (error: Error) => void;
}

const DEFAULT_CLOSE_TIMEOUT_MS = 2000;

/**
 * A real SMTP server on 127.0.0.1 that accepts every message and keeps it: the local suite's
 * mail catcher and the tests' mail server. Plain SMTP: no STARTTLS is offered, so senders need
 * no certificate to trust, and any AUTH is accepted. It can be stopped and started again on the
 * same port (mail queued meanwhile arrives afterwards), and `stallData()` holds messages in the
 * DATA phase until `releaseStalled()`.
 */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  private server: SMTPServer | undefined;
  private stalling = false;
  private readonly stalled: ((error: Error) => void)[] = [];
  private readonly waiters = new Set<() => void>();
  private boundPort: number;

  constructor(private readonly options: SmtpSinkOptions = {}) {
    this.boundPort = options.port ?? 0;
  }

  /** A sink listening already. */
  static async start(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
    const sink = new SmtpSink(options);
    await sink.start();
    return sink;
  }

  /** The bound port (the configured one before the first start). */
  get port(): number {
    return this.boundPort;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.boundPort}`;
  }

  /** Messages held by `stallData()`. */
  get stalledCount(): number {
    return this.stalled.length;
  }

  /** Listens (again, after stop()) and resolves with the port. */
  async start(): Promise<number> {
    if (this.server) return this.boundPort;
    const server = this.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.boundPort, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => this.options.onError?.(error));
    const address = server.server.address();
    if (typeof address === 'object' && address) this.boundPort = address.port;
    this.server = server;
    return this.boundPort;
  }

  /** Stops listening; held messages are answered with an error. start() listens again. */
  async stop(): Promise<void> {
    this.releaseStalled(new Error('sink closing'));
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** From now on, messages wait in the DATA phase (unanswered) until releaseStalled(). */
  stallData(): void {
    this.stalling = true;
  }

  /** Ends the stall: held messages get `error` as their DATA reply and are not kept. */
  releaseStalled(error = new Error('connection lost')): void {
    this.stalling = false;
    for (const reply of this.stalled.splice(0)) reply(error);
  }

  /** The first message, already received or still to come, that satisfies `predicate`. */
  async waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs = 30_000): Promise<ReceivedMail> {
    let found: ReceivedMail | undefined;
    await this.waitUntil(() => (found = this.received.find(predicate)) !== undefined, timeoutMs);
    return found!;
  }

  /** Resolves once `condition()` holds, checked now and whenever the sink receives or holds a message. */
  async waitUntil(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
    if (condition()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`smtp sink: condition not met within ${timeoutMs} ms`));
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

  private createServer(): SMTPServer {
    return new SMTPServer({
      ...(this.options.banner === undefined ? {} : { banner: this.options.banner }),
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      size: 10 * 1024 * 1024,
      closeTimeout: this.options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS,
      onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? 'anonymous' }),
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', callback);
        stream.on('end', () => {
          if (this.stalling) {
            this.stalled.push((error) => callback(error));
            this.notify();
            return;
          }
          const mail = receivedMail(Buffer.concat(chunks), session.envelope);
          if (this.options.keepMessages !== false) this.received.push(mail);
          this.options.onMessage?.(mail);
          this.notify();
          callback();
        });
      },
    });
  }

  private notify(): void {
    for (const check of [...this.waiters]) check();
  }
}

type Envelope = { mailFrom: false | { address: string }; rcptTo: { address: string }[] };

function receivedMail(raw: Buffer, envelope: Envelope): ReceivedMail {
  const parsed = parseMail(raw);
  return {
    ...parsed,
    envelopeFrom: envelope.mailFrom ? envelope.mailFrom.address : '',
    envelopeTo: envelope.rcptTo.map((recipient) => recipient.address),
    links: findLinks(parsed.text ?? parsed.html ?? ''),
    raw: raw.toString('utf8'),
  };
}
