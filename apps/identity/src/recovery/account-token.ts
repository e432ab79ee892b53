import { randomUUID } from 'node:crypto';
import { keyedHash, randomHexToken } from '@authz/shared/crypto';
import type { MailJobData, MailJobName } from '@authz/shared/mail';
import { InvalidTokenError, ValidationError } from '@authz/shared/errors';
import { sealOutboxPayload } from '../outbox/outbox-payload.js';
import type { OutboxMail } from './account-recovery-store.js';

export interface AccountTokenDeps {
  secretHashKey: Buffer;
  outboxKey: Buffer;
  issuer: string;
}

/** The outbox row of one mail, its payload sealed (docs/identity.md #4). */
export function outboxMail(
  deps: Pick<AccountTokenDeps, 'outboxKey'>,
  jobName: MailJobName,
  data: MailJobData,
): OutboxMail {
  const id = randomUUID();
  return { id, jobName, payload: sealOutboxPayload(deps.outboxKey, id, data) };
}

/**
 * A new token (32 random bytes as 64 hex), its keyed hash (the only form stored, docs/decisions.md
 * #5) and the hosted page link that carries it (interface.md 4.10).
 */
export function newLinkToken(deps: AccountTokenDeps, page: '/ui/reset-password' | '/ui/verify-email') {
  const token = randomHexToken();
  return { tokenHash: keyedHash(deps.secretHashKey, token), url: `${deps.issuer}${page}?token=${token}` };
}

const TOKEN_PATTERN = /^[0-9a-f]{64}$/i;

/** The keyed hash of a presented token; a malformed one is a validation error on `token`. */
export function presentedTokenHash(deps: Pick<AccountTokenDeps, 'secretHashKey'>, token: string): string {
  if (!TOKEN_PATTERN.test(token)) {
    throw new ValidationError([{ path: 'token', message: 'must be 64 hexadecimal characters' }]);
  }
  return keyedHash(deps.secretHashKey, token.toLowerCase());
}

export function invalidToken(): never {
  throw new InvalidTokenError();
}
