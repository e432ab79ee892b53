import type { LauncherConfig } from './config.js';

/**
 * What a newcomer needs once the suite answers: where it listens, the issuer and its discovery
 * document, where mail goes, and the walkthrough to follow next. The first line stays the one
 * scripts and tests wait for ("Authorization server listening on <url>").
 */
export function readyMessage(config: Pick<LauncherConfig, 'host' | 'port' | 'issuer' | 'smtpUrl'>): string {
  const issuer = config.issuer.replace(/\/+$/, '');
  const mail = config.smtpUrl
    ? `sent through SMTP_URL (${redactUserInfo(config.smtpUrl)})`
    : 'no SMTP_URL: every mail is printed below as "mail", links included';
  return [
    `Authorization server listening on http://${config.host}:${config.port}`,
    '',
    `  Issuer     ${issuer}`,
    `  Discovery  ${issuer}/.well-known/openid-configuration`,
    `  Mail       ${mail}`,
    '',
    '  Try it: docs/getting-started.md registers a user, creates a client and signs in',
    `  with openid-client (node examples/sign-in.mjs). Stop with Ctrl-C.`,
    '',
  ].join('\n');
}

/** An SMTP URL may carry a password; the console never shows it. */
function redactUserInfo(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) {
      parsed.username = '***';
      parsed.password = '';
    }
    return parsed.toString();
  } catch {
    return 'SMTP_URL';
  }
}
