import { SMTPServer } from 'smtp-server';
import type { LineSink } from './log.js';
import { findLinks, parseMail } from '@authz/shared/mail';

export interface LoggedMail {
  from: string;
  to: string[];
  subject: string;
  links: string[];
}

export interface MailSinkOptions {
  port: number;
  sink: LineSink;
  onMessage?: (mail: LoggedMail) => void;
}

export interface MailSink {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * A development SMTP server that accepts every message and logs who it is for, its subject
 * and its links (the verification link is what a developer needs). Plain SMTP on 127.0.0.1:
 * no STARTTLS is offered, so nodemailer sends without a certificate to trust.
 */
export async function startMailSink(options: MailSinkOptions): Promise<MailSink> {
  const server = new SMTPServer({
    banner: 'authz local mail sink',
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 10 * 1024 * 1024,
    closeTimeout: 2000,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? 'anonymous' }),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const mail = describe(Buffer.concat(chunks), session.envelope);
        options.sink('mail', `message to ${mail.to.join(', ')}: ${mail.subject || '(no subject)'}`);
        for (const link of mail.links) options.sink('mail', `  link: ${link}`);
        options.onMessage?.(mail);
        callback();
      });
    },
  });
  server.on('error', (error) => options.sink('mail', `SMTP error: ${error.message}`));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    url: `smtp://127.0.0.1:${options.port}`,
    port: options.port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

type Envelope = { mailFrom: false | { address: string }; rcptTo: { address: string }[] };

function describe(raw: Buffer, envelope: Envelope): LoggedMail {
  const parsed = parseMail(raw);
  return {
    from: envelope.mailFrom ? envelope.mailFrom.address : '',
    to: envelope.rcptTo.map((recipient) => recipient.address),
    subject: parsed.subject,
    // Links of the text part; the HTML part only when there is no text part.
    links: findLinks(parsed.text ?? parsed.html ?? ''),
  };
}
