import { describe, expect, it } from 'vitest';
import { renderMailJob } from './render-mail.js';

// docs/strong-authentication.md #12: the notice when a sign-in factor is added or removed.
describe('second-factor-changed mail', () => {
  it('names the factor and the change, in a text and an HTML part, without a link', () => {
    const cases = [
      [
        'authenticator_app',
        'added',
        'An authenticator app was added to your account',
        'An authenticator app was added to',
      ],
      [
        'authenticator_app',
        'removed',
        'An authenticator app was removed from your account',
        'An authenticator app was removed from',
      ],
      ['passkey', 'added', 'A passkey was added to your account', 'A passkey was added to'],
      ['passkey', 'removed', 'A passkey was removed from your account', 'A passkey was removed from'],
    ] as const;
    for (const [factor, change, subject, sentence] of cases) {
      const mail = renderMailJob('second-factor-changed', { to: 'alice@example.com', factor, change });
      expect(mail.to).toBe('alice@example.com');
      expect(mail.subject).toBe(subject);
      expect(mail.text).toBe(
        `${sentence} the sign-in methods of your account.\n` +
          'If you did not do this, change your password at once and review your account page.\n',
      );
      expect(mail.html).toBe(
        [
          '<!doctype html>',
          '<html><body>',
          `<p>${sentence} the sign-in methods of your account.</p>`,
          '<p>If you did not do this, change your password at once and review your account page.</p>',
          '</body></html>',
          '',
        ].join('\n'),
      );
    }
  });

  it('refuses a factor or a change it does not know, naming the field', () => {
    expect(() =>
      renderMailJob('second-factor-changed', { to: 'alice@example.com', factor: 'sms', change: 'added' }),
    ).toThrow(/invalid second-factor-changed job: factor: /);
    expect(() =>
      renderMailJob('second-factor-changed', {
        to: 'alice@example.com',
        factor: 'passkey',
        change: 'renamed',
      }),
    ).toThrow(/invalid second-factor-changed job: change: /);
  });
});
