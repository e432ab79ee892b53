import type { VerificationEmailJob } from '@authz/shared/mail';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export const VERIFICATION_EMAIL_SUBJECT = 'Verify your email address';

/** The verification email: the text part carries `verifyUrl` verbatim (docs/contract.md "Mail"). */
export function renderVerificationEmail({ verifyUrl }: VerificationEmailJob): RenderedMail {
  const link = escapeHtml(verifyUrl);
  return {
    subject: VERIFICATION_EMAIL_SUBJECT,
    text: [
      'Confirm your email address by opening this link:',
      '',
      verifyUrl,
      '',
      'If you did not create an account, ignore this message.',
      '',
    ].join('\n'),
    html: [
      '<!doctype html>',
      '<html><body>',
      '<p>Confirm your email address by opening this link:</p>',
      `<p><a href="${link}">${link}</a></p>`,
      '<p>If you did not create an account, ignore this message.</p>',
      '</body></html>',
      '',
    ].join('\n'),
  };
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}
