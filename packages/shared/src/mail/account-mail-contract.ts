import { z } from 'zod';
import { VERIFICATION_EMAIL_JOB, verificationEmailJobSchema } from './queue-contract.js';

// The account-lifecycle mails of interface.md 4.10 (docs/mail.md "Queue contract"):
// the same queue, options and outbox as the verification mail, one job name each.

export const PASSWORD_RESET_JOB = 'password-reset';
export const PASSWORD_CHANGED_JOB = 'password-changed';
export const EMAIL_CHANGE_JOB = 'email-change';
export const EMAIL_CHANGED_JOB = 'email-changed';
/** docs/strong-authentication.md #12: a sign-in factor was added or removed. */
export const SECOND_FACTOR_CHANGED_JOB = 'second-factor-changed';

const to = z.email().max(254);
const link = z.url({ protocol: /^https?$/ }).max(2048);

/** `resetUrl` is `${JWT_ISSUER}/ui/reset-password?token=<64 hex>`. */
export const passwordResetJobSchema = z.object({ to, resetUrl: link });
/** A notice: no link, nothing secret. */
export const passwordChangedJobSchema = z.object({ to });
/** To the new address; `confirmUrl` is `${JWT_ISSUER}/ui/verify-email?token=<64 hex>`. */
export const emailChangeJobSchema = z.object({ to, confirmUrl: link });
/** To the old address, once the new one is confirmed. */
export const emailChangedJobSchema = z.object({ to });
/** A notice naming the kind of factor and the change; nothing secret. */
export const secondFactorChangedJobSchema = z.object({
  to,
  factor: z.enum(['authenticator_app', 'passkey']),
  change: z.enum(['added', 'removed']),
});

export type PasswordResetJob = z.infer<typeof passwordResetJobSchema>;
export type PasswordChangedJob = z.infer<typeof passwordChangedJobSchema>;
export type EmailChangeJob = z.infer<typeof emailChangeJobSchema>;
export type EmailChangedJob = z.infer<typeof emailChangedJobSchema>;
export type SecondFactorChangedJob = z.infer<typeof secondFactorChangedJobSchema>;

/** Every job the mail queue carries, by name, with the schema its data must satisfy. */
export const MAIL_JOB_SCHEMAS = {
  [VERIFICATION_EMAIL_JOB]: verificationEmailJobSchema,
  [PASSWORD_RESET_JOB]: passwordResetJobSchema,
  [PASSWORD_CHANGED_JOB]: passwordChangedJobSchema,
  [EMAIL_CHANGE_JOB]: emailChangeJobSchema,
  [EMAIL_CHANGED_JOB]: emailChangedJobSchema,
  [SECOND_FACTOR_CHANGED_JOB]: secondFactorChangedJobSchema,
} as const;

export type MailJobName = keyof typeof MAIL_JOB_SCHEMAS;

/** The data of any job of the queue, as identity seals it in its outbox. */
export type MailJobData = { [Name in MailJobName]: z.infer<(typeof MAIL_JOB_SCHEMAS)[Name]> }[MailJobName];

export function isMailJobName(name: string): name is MailJobName {
  return Object.hasOwn(MAIL_JOB_SCHEMAS, name);
}
