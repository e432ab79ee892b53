import { randomUUID } from 'node:crypto';
import { keyedHash, randomHexToken } from '@authz/shared/crypto';
import { VERIFICATION_EMAIL_JOB } from '@authz/shared/mail';
import { sealOutboxPayload } from '../outbox/outbox-payload.js';
import type { NewVerification } from './verification-store.js';

export interface IssueVerificationDeps {
  secretHashKey: Buffer;
  outboxKey: Buffer;
  issuer: string;
  verificationTokenTtlSeconds: number;
}

/**
 * A verification token (only its keyed hash is kept, docs/decisions.md #5) and the mail that
 * carries its link, sealed for the outbox (docs/decisions.md #29); the stores write both in the
 * transaction that needs them. The link is docs/contract.md "Mail".
 */
export function newVerification(deps: IssueVerificationDeps, to: string): NewVerification {
  const token = randomHexToken();
  const outboxId = randomUUID();
  // A page whose GET changes nothing (interface.md 4.10; docs/security.md #12 finding 10).
  const verifyUrl = `${deps.issuer}/ui/verify-email?token=${token}`;
  return {
    tokenHash: keyedHash(deps.secretHashKey, token),
    expiresAt: new Date(Date.now() + deps.verificationTokenTtlSeconds * 1000),
    mail: {
      id: outboxId,
      jobName: VERIFICATION_EMAIL_JOB,
      payload: sealOutboxPayload(deps.outboxKey, outboxId, { to, verifyUrl }),
    },
  };
}
