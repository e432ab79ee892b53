import type {
  EmailChangedJob,
  EmailChangeJob,
  PasswordChangedJob,
  PasswordResetJob,
} from '@authz/shared/mail';
import { escapeHtml, type RenderedMail } from './verification-email.js';

// The account-lifecycle mails (interface.md 4.10; docs/mail.md "Queue contract"). Each has a
// text part and an HTML part; links appear verbatim in the text and HTML-escaped in the HTML.

export const PASSWORD_RESET_SUBJECT = 'Reset your password';
export const PASSWORD_CHANGED_SUBJECT = 'Your password was changed';
export const EMAIL_CHANGE_SUBJECT = 'Confirm your new email address';
export const EMAIL_CHANGED_SUBJECT = 'The email address of your account was changed';

export function renderPasswordResetEmail({ resetUrl }: PasswordResetJob): RenderedMail {
  return withLink(PASSWORD_RESET_SUBJECT, 'Choose a new password by opening this link:', resetUrl, [
    'The link works once, for one hour; a newer reset mail replaces it.',
    'If you did not ask to reset your password, ignore this message: nothing changes.',
  ]);
}

export function renderEmailChangeEmail({ confirmUrl }: EmailChangeJob): RenderedMail {
  return withLink(
    EMAIL_CHANGE_SUBJECT,
    'Confirm that this is the new email address of your account by opening this link:',
    confirmUrl,
    ['The address changes only once you confirm.', 'If you did not ask for this, ignore this message.'],
  );
}

export function renderPasswordChangedEmail(_job: PasswordChangedJob): RenderedMail {
  return notice(PASSWORD_CHANGED_SUBJECT, [
    'The password of your account was changed, and other sign-ins to it were ended.',
    'If you did not do this, reset your password at once from the sign-in page ("Forgot password?").',
  ]);
}

export function renderEmailChangedEmail(_job: EmailChangedJob): RenderedMail {
  return notice(EMAIL_CHANGED_SUBJECT, [
    'The email address of your account was changed: this address no longer signs in to it.',
    'If you did not do this, contact the operator of this service.',
  ]);
}

function withLink(subject: string, intro: string, url: string, after: string[]): RenderedMail {
  const link = escapeHtml(url);
  return {
    subject,
    text: [intro, '', url, '', ...after, ''].join('\n'),
    html: [
      '<!doctype html>',
      '<html><body>',
      `<p>${escapeHtml(intro)}</p>`,
      `<p><a href="${link}">${link}</a></p>`,
      ...after.map((line) => `<p>${escapeHtml(line)}</p>`),
      '</body></html>',
      '',
    ].join('\n'),
  };
}

function notice(subject: string, lines: string[]): RenderedMail {
  return {
    subject,
    text: [...lines, ''].join('\n'),
    html: [
      '<!doctype html>',
      '<html><body>',
      ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
      '</body></html>',
      '',
    ].join('\n'),
  };
}
