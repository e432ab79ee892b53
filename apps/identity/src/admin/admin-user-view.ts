import type { MessageInitShape } from '@bufbuild/protobuf';
import type { AdminUserSchema } from '@authz/proto/identity/v1/admin';
import type { AdministeredUser } from './admin-store.js';

/** The operator's view of an account (interface.md 4.15): epoch milliseconds, no credential. */
export function toAdminUserMessage({
  user,
  admin,
}: AdministeredUser): MessageInitShape<typeof AdminUserSchema> {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    ...(user.name === null ? {} : { name: user.name }),
    createdAt: BigInt(user.createdAt.getTime()),
    ...(user.updatedAt ? { updatedAt: BigInt(user.updatedAt.getTime()) } : {}),
    ...(user.disabledAt ? { disabledAt: BigInt(user.disabledAt.getTime()) } : {}),
    admin,
  };
}
