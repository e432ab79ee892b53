import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

/**
 * Secrets never reach the logs (docs/conventions.md #10): credentials, cookies, codes and every
 * kind of token are censored wherever they appear at the top level or one level down.
 */
const SECRET_KEYS = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'newPassword',
  'client_secret',
  'clientSecret',
  'secret',
  'code',
  'code_verifier',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'subject_token',
  'actor_token',
  'assertion',
  'client_assertion',
  'key',
  'apiKey',
  'vp_token',
  'csrfToken',
  // RFC 8628 (docs/device-grant.md #3): the device code is a bearer secret, the user code a short one.
  'device_code',
  'deviceCode',
  'user_code',
  'userCode',
  // docs/strong-authentication.md #6: the second step's token, and recovery codes.
  'mfa_token',
  'mfaToken',
  'sessionToken',
  'recoveryCodes',
  'otpauthUri',
];

export const REDACTED_PATHS = [
  ...SECRET_KEYS.map((key) => `["${key}"]`),
  ...SECRET_KEYS.map((key) => `*["${key}"]`),
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

export interface CreateLoggerOptions {
  service: string;
  level?: string;
  /** For tests: write somewhere other than stdout. */
  destination?: pino.DestinationStream;
}

export function createLogger({ service, level = 'info', destination }: CreateLoggerOptions): Logger {
  const options: LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
  };
  return destination ? pino(options, destination) : pino(options);
}
