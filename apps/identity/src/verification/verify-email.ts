import type { RequestOrigin } from '@authz/proto/identity/v1/identity';
import { keyedHash } from '@authz/shared/crypto';
import { InvalidTokenError, ValidationError } from '@authz/shared/errors';
import { recordAudit } from '../audit/audit-log.js';
import type { PrismaClient } from '../generated/prisma/client.js';

export interface VerifyEmailDeps {
  prisma: PrismaClient;
  secretHashKey: Buffer;
}

const TOKEN_PATTERN = /^[0-9a-f]{64}$/i;

/**
 * interface.md 4.2 GET /auth/verify, docs/decisions.md #5: malformed → validation error; unknown, expired
 * or used → InvalidTokenError. Consuming is one conditional UPDATE, so of two concurrent
 * uses exactly one wins.
 */
export async function verifyEmail(
  deps: VerifyEmailDeps,
  token: string,
  origin: RequestOrigin | undefined,
): Promise<string> {
  if (!TOKEN_PATTERN.test(token)) {
    throw new ValidationError([{ path: 'token', message: 'must be 64 hexadecimal characters' }]);
  }
  const tokenHash = keyedHash(deps.secretHashKey, token.toLowerCase());
  return deps.prisma.$transaction(async (tx) => {
    const consumed = await tx.$queryRaw<{ user_id: string }[]>`
      UPDATE "identity"."verification_tokens" SET "used_at" = now()
      WHERE "token_hash" = ${tokenHash} AND "used_at" IS NULL AND "expires_at" > now()
      RETURNING "user_id"::text`;
    const userId = consumed[0]?.user_id;
    if (!userId) throw new InvalidTokenError();
    const user = await tx.user.update({
      where: { id: userId },
      data: { emailVerified: true, updatedAt: new Date() },
    });
    await recordAudit(tx, { type: 'email_verification', actorUserId: user.id, origin });
    return user.email;
  });
}
