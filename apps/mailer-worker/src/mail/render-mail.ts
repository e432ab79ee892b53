import {
  EMAIL_CHANGE_JOB,
  EMAIL_CHANGED_JOB,
  isMailJobName,
  MAIL_JOB_SCHEMAS,
  PASSWORD_CHANGED_JOB,
  PASSWORD_RESET_JOB,
  SECOND_FACTOR_CHANGED_JOB,
  VERIFICATION_EMAIL_JOB,
  type MailJobName,
} from '@authz/shared/mail';
import { UnrecoverableError } from 'bullmq';
import type { z } from 'zod';
import {
  renderEmailChangedEmail,
  renderEmailChangeEmail,
  renderPasswordChangedEmail,
  renderPasswordResetEmail,
} from './account-mails.js';
import { renderSecondFactorChangedEmail } from './second-factor-mail.js';
import { renderVerificationEmail, type RenderedMail } from './verification-email.js';

type Renderers = {
  [Name in MailJobName]: (data: z.infer<(typeof MAIL_JOB_SCHEMAS)[Name]>) => RenderedMail;
};

const RENDERERS: Renderers = {
  [VERIFICATION_EMAIL_JOB]: renderVerificationEmail,
  [PASSWORD_RESET_JOB]: renderPasswordResetEmail,
  [PASSWORD_CHANGED_JOB]: renderPasswordChangedEmail,
  [EMAIL_CHANGE_JOB]: renderEmailChangeEmail,
  [EMAIL_CHANGED_JOB]: renderEmailChangedEmail,
  [SECOND_FACTOR_CHANGED_JOB]: renderSecondFactorChangedEmail,
};

/** The metrics label of a job name: the name when known, else `unknown`. */
export function mailKind(name: string): string {
  return isMailJobName(name) ? name : 'unknown';
}

/**
 * The recipient and message of a job (docs/mail.md "Failures and retries"): an unknown name or
 * data that fails its schema is UnrecoverableError, naming fields, never their values.
 */
export function renderMailJob(name: string, data: unknown): { to: string } & RenderedMail {
  if (!isMailJobName(name)) throw new UnrecoverableError(`unknown mail job "${name}"`);
  const parsed = MAIL_JOB_SCHEMAS[name].safeParse(data);
  if (!parsed.success) {
    // Paths and messages only: the values may hold a token.
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'data'}: ${issue.message}`,
    );
    throw new UnrecoverableError(`invalid ${name} job: ${problems.join('; ')}`);
  }
  const render = RENDERERS[name] as (value: unknown) => RenderedMail;
  return { to: parsed.data.to, ...render(parsed.data) };
}
