import { SmtpSink, type ReceivedMail } from '@authz/shared/smtp-sink';
import type { LineSink } from './log.js';

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
  const server = await SmtpSink.start({
    port: options.port,
    banner: 'authz local mail sink',
    closeTimeoutMs: 2000,
    onMessage: (received) => {
      const mail = describe(received);
      options.sink('mail', `message to ${mail.to.join(', ')}: ${mail.subject || '(no subject)'}`);
      for (const link of mail.links) options.sink('mail', `  link: ${link}`);
      options.onMessage?.(mail);
    },
    // A development session can run for days; the log is where messages are read.
    keepMessages: false,
    onError: (error) => options.sink('mail', `SMTP error: ${error.message}`),
  });
  return { url: server.url, port: server.port, close: () => server.stop() };
}

function describe(mail: ReceivedMail): LoggedMail {
  return { from: mail.envelopeFrom, to: mail.envelopeTo, subject: mail.subject, links: mail.links };
}
