import type { RemovePasskeyRequest, RenamePasskeyRequest } from '@authz/proto/identity/v1/second_factors';
import { ConflictError, NotFoundError } from '@authz/shared/errors';
import { SECOND_FACTOR_CHANGED_JOB } from '@authz/shared/mail';
import type { AccountStore } from '../accounts/account-store.js';
import type { AuditLog } from '../audit/audit-log.js';
import { outboxMail } from '../recovery/account-token.js';
import { passkeyName } from './passkey-name.js';
import type { PasskeyStore, StoredPasskey } from './passkey-store.js';

export interface PasskeyManagementDeps {
  accounts: Pick<AccountStore, 'findById'>;
  passkeys: PasskeyStore;
  audit: AuditLog;
  outboxKey: Buffer;
  onMailQueued(): void;
}

/** The passkeys as GET /auth/mfa and the account page list them (epoch milliseconds). */
export async function passkeySummaries(deps: Pick<PasskeyManagementDeps, 'passkeys'>, userId: string) {
  return (await deps.passkeys.list(userId)).map(passkeySummary);
}

export function passkeySummary(passkey: StoredPasskey) {
  return {
    id: passkey.id,
    name: passkey.name,
    createdAt: BigInt(passkey.createdAt.getTime()),
    ...(passkey.lastUsedAt === null ? {} : { lastUsedAt: BigInt(passkey.lastUsedAt.getTime()) }),
  };
}

/** docs/strong-authentication.md #17: a new name; NotFoundError for a passkey not the user's. */
export async function renamePasskey(
  deps: PasskeyManagementDeps,
  request: RenamePasskeyRequest,
): Promise<void> {
  const name = passkeyName(request.name);
  if (!(await deps.passkeys.rename(request.userId, request.passkeyId, name))) {
    throw new NotFoundError({ message: 'No such passkey' });
  }
  await deps.audit.record({
    type: 'passkey_renamed',
    actorUserId: request.userId,
    origin: request.origin,
    details: { passkeyId: request.passkeyId },
  });
}

/** docs/strong-authentication.md #17: removal, with the notice mail; NotFoundError for a passkey not the user's. */
export async function removePasskey(
  deps: PasskeyManagementDeps,
  request: RemovePasskeyRequest,
): Promise<void> {
  const user = await deps.accounts.findById(request.userId);
  if (!user) throw new NotFoundError({ message: 'No such passkey' });
  const removed = await deps.passkeys.remove(
    request.userId,
    request.passkeyId,
    outboxMail(deps, SECOND_FACTOR_CHANGED_JOB, { to: user.email, factor: 'passkey', change: 'removed' }),
  );
  if (removed === 'not_found') throw new NotFoundError({ message: 'No such passkey' });
  if (removed === 'last_method') {
    throw new ConflictError({ message: 'This passkey is the only way to sign in to the account' });
  }
  deps.onMailQueued();
  await deps.audit.record({
    type: 'passkey_removed',
    actorUserId: request.userId,
    origin: request.origin,
    details: { passkeyId: request.passkeyId },
  });
}
