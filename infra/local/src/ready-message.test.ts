import { describe, expect, it } from 'vitest';
import { readyMessage } from './ready-message.js';

describe('the ready message of pnpm start', () => {
  it('names the issuer, discovery, the console mail sink and the walkthrough', () => {
    expect(
      readyMessage({ host: '127.0.0.1', port: 3000, issuer: 'http://localhost:3000', smtpUrl: undefined }),
    ).toBe(
      [
        'Authorization server listening on http://127.0.0.1:3000',
        '',
        '  Issuer     http://localhost:3000',
        '  Discovery  http://localhost:3000/.well-known/openid-configuration',
        '  Mail       no SMTP_URL: every mail is printed below as "mail", links included',
        '',
        '  Try it: docs/getting-started.md registers a user, creates a client and signs in',
        '  with openid-client (node examples/sign-in.mjs). Stop with Ctrl-C.',
        '',
      ].join('\n'),
    );
  });

  it('never prints the SMTP password', () => {
    const message = readyMessage({
      host: '0.0.0.0',
      port: 8080,
      issuer: 'https://id.example.com/',
      smtpUrl: 'smtps://mailer:s3cret@smtp.example.com:465',
    });
    expect(message).toContain('  Issuer     https://id.example.com\n');
    expect(message).toContain('  Mail       sent through SMTP_URL (smtps://***@smtp.example.com:465)\n');
    expect(message).not.toContain('s3cret');
  });
});
