import type { SecondFactorChangedJob } from '@authz/shared/mail';
import { escapeHtml, type RenderedMail } from './verification-email.js';

// docs/strong-authentication.md #12: a notice when a sign-in factor is added or removed, so
// that someone holding the password alone cannot quietly add their own factor or strip the
// owner's. Text and HTML parts, like the other account mails.

const FACTOR_NAMES: Record<SecondFactorChangedJob['factor'], string> = {
  authenticator_app: 'An authenticator app',
  passkey: 'A passkey',
};

export function secondFactorChangedSubject({ factor, change }: SecondFactorChangedJob): string {
  return `${FACTOR_NAMES[factor]} was ${change === 'added' ? 'added to' : 'removed from'} your account`;
}

export function renderSecondFactorChangedEmail(job: SecondFactorChangedJob): RenderedMail {
  const lines = [
    `${FACTOR_NAMES[job.factor]} was ${job.change === 'added' ? 'added to' : 'removed from'} the sign-in methods of your account.`,
    'If you did not do this, change your password at once and review your account page.',
  ];
  return {
    subject: secondFactorChangedSubject(job),
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
