import { decryptWithKey, encryptWithKey, keyedHash } from '@authz/shared/crypto';
import type { MailJobData } from '@authz/shared/mail';

/**
 * An outbox row may carry a verification, reset or email-change link, i.e. a token. The database must never hold a
 * token in clear (docs/architecture.md "Data and secrets"), so the payload is sealed with AES-256-GCM
 * under a key derived from SECRET_HASH_KEY for this one purpose, bound to the row id.
 */
export function outboxKey(secretHashKey: Buffer): Buffer {
  return Buffer.from(keyedHash(secretHashKey, 'identity/mail-outbox/v1'), 'hex');
}

export function sealOutboxPayload(key: Buffer, outboxId: string, job: MailJobData): string {
  return encryptWithKey(key, Buffer.from(JSON.stringify(job), 'utf8'), outboxId);
}

export function openOutboxPayload(key: Buffer, outboxId: string, sealed: string): MailJobData {
  return JSON.parse(decryptWithKey(key, sealed, outboxId).toString('utf8')) as MailJobData;
}
