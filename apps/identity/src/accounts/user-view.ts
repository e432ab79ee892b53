import type { MessageInitShape } from '@bufbuild/protobuf';
import type { UserSchema } from '@authz/proto/identity/v1/identity';
import type { ProfileUser } from './user-profile.js';

/** interface.md 2.1: timestamps in epoch milliseconds; updatedAt absent (null) until the first change. */
export function toUserMessage(user: ProfileUser): MessageInitShape<typeof UserSchema> {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    realmId: user.realmId,
    createdAt: BigInt(user.createdAt.getTime()),
    ...(user.updatedAt ? { updatedAt: BigInt(user.updatedAt.getTime()) } : {}),
    ...(user.name !== null ? { name: user.name } : {}),
  };
}
