import { decryptWithKey, encryptWithKey, keyedHash } from '@authz/shared/crypto';
import type { VerificationEmailJob } from '@authz/shared/mail';

/**
 * An outbox row carries the verification link, i.e. the token. The database must never hold a
 * token in clear (docs/architecture.md "Data and secrets"), so the payload is sealed with AES-256-GCM
 * under a key derived from SECRET_HASH_KEY for this one purpose, bound to the row id.
 */
export function outboxKey(secretHashKey: Buffer): Buffer {
  return Buffer.from(keyedHash(secretHashKey, 'identity/mail-outbox/v1'), 'hex');
}

export function sealOutboxPayload(key: Buffer, outboxId: string, job: VerificationEmailJob): string {
  return encryptWithKey(key, Buffer.from(JSON.stringify(job), 'utf8'), outboxId);
}

export function openOutboxPayload(key: Buffer, outboxId: string, sealed: string): VerificationEmailJob {
  return JSON.parse(decryptWithKey(key, sealed, outboxId).toString('utf8')) as VerificationEmailJob;
}
