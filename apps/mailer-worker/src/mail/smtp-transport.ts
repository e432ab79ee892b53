import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';

/**
 * Bounds on one send, so a dead or hung SMTP server fails the attempt (and BullMQ retries it
 * with the job's backoff) instead of holding a worker slot for nodemailer's minutes-long defaults.
 */
export const SMTP_TIMEOUTS = {
  /** TCP (and TLS) connection established. */
  connectionTimeoutMs: 10_000,
  /** Server greeting after the connection opened. */
  greetingTimeoutMs: 10_000,
  /** Longest silence on an open connection (covers a stalled DATA phase). */
  socketTimeoutMs: 30_000,
  dnsTimeoutMs: 10_000,
} as const;

export type MailTransport = Transporter<SMTPTransport.SentMessageInfo>;

/** A transport for `smtp://[user:pass@]host:port` (STARTTLS when offered) or `smtps://` (implicit TLS). */
export function createSmtpTransport(smtpUrl: string): MailTransport {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  // Not pooled: one connection per message, so a broken connection never poisons later sends.
  const options: SMTPTransport.Options = {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    connectionTimeout: SMTP_TIMEOUTS.connectionTimeoutMs,
    greetingTimeout: SMTP_TIMEOUTS.greetingTimeoutMs,
    socketTimeout: SMTP_TIMEOUTS.socketTimeoutMs,
    dnsTimeout: SMTP_TIMEOUTS.dnsTimeoutMs,
  };
  return nodemailer.createTransport(options);
}
