import { describe, expect, it } from 'vitest';
import { renderMailJob } from './render-mail.js';

// The account-lifecycle mails (interface.md 4.10, docs/mail.md "Queue contract").
const token = 'cd'.repeat(32);

describe('account-lifecycle mails', () => {
  it('puts the reset and confirmation links verbatim in the text and escaped in the HTML', () => {
    for (const [name, field, path, subject] of [
      ['password-reset', 'resetUrl', '/ui/reset-password', 'Reset your password'],
      ['email-change', 'confirmUrl', '/ui/verify-email', 'Confirm your new email address'],
    ] as const) {
      const url = `https://id.example.com${path}?token=${token}&x=<"y">`;
      const mail = renderMailJob(name, { to: 'alice@example.com', [field]: url });
      expect(mail.to).toBe('alice@example.com');
      expect(mail.subject).toBe(subject);
      expect(mail.text.split('\n')).toContain(url);
      expect(mail.html).toContain(
        `href="https://id.example.com${path}?token=${token}&amp;x=&lt;&quot;y&quot;&gt;"`,
      );
      expect(mail.html).not.toContain(url);
    }
  });

  it('sends the notices without any link', () => {
    const changed = renderMailJob('password-changed', { to: 'alice@example.com' });
    expect(changed.subject).toBe('Your password was changed');
    const moved = renderMailJob('email-changed', { to: 'old@example.com' });
    expect(moved.subject).toBe('The email address of your account was changed');
    for (const mail of [changed, moved]) {
      expect(mail.text).not.toMatch(/https?:/);
      expect(mail.html).toMatch(/^<!doctype html>/);
    }
  });

  it('rejects unknown names and bad data for good, naming fields, never values', () => {
    expect(() => renderMailJob('password-reminder', { to: 'alice@example.com' })).toThrow(
      'unknown mail job "password-reminder"',
    );
    expect(() =>
      renderMailJob('password-reset', { to: 'alice@example.com', resetUrl: `javascript:${token}` }),
    ).toThrow(/^invalid password-reset job: resetUrl: /);
    try {
      renderMailJob('password-reset', { to: 'alice@example.com', resetUrl: `javascript:${token}` });
    } catch (error) {
      expect((error as Error).name).toBe('UnrecoverableError');
      expect((error as Error).message).not.toContain(token);
    }
  });
});
