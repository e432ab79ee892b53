import { z } from 'zod';

const emailSchema = z.email().max(254);

/** The address as given, trimmed, or undefined when it is not syntactically an email. */
export function parseEmail(raw: string): string | undefined {
  const trimmed = raw.trim();
  return emailSchema.safeParse(trimmed).success ? trimmed : undefined;
}

/** Uniqueness and lookups compare lower-cased addresses (docs/decisions.md #1). */
export function emailKey(email: string): string {
  return email.toLowerCase();
}

export const EMAIL_MESSAGE = 'must be a valid email address';
