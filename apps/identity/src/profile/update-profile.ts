import type { UpdateProfileRequest } from '@authz/proto/identity/v1/accounts';
import { NotFoundError, ValidationError } from '@authz/shared/errors';
import type { AccountStore } from '../accounts/account-store.js';
import { isUuid } from '../accounts/get-user.js';
import type { User } from '../generated/prisma/client.js';

/** interface.md 8 lengths: names are 1 to 255 code points, like client names. */
export const MAX_NAME_LENGTH = 255;

/**
 * PATCH /auth/me (interface.md 4.10): sets the user's name, trimmed, 1 to 255 code points, or clears
 * it; `updatedAt` is set either way (docs/identity.md #21). The name becomes the `name` claim of
 * ID tokens and UserInfo (interface.md 2.5).
 */
export async function updateProfile(
  deps: { accounts: Pick<AccountStore, 'updateName'> },
  request: UpdateProfileRequest,
): Promise<User> {
  const name = request.name === undefined ? null : checkName(request.name);
  const user = isUuid(request.userId)
    ? await deps.accounts.updateName(request.userId, name, new Date())
    : undefined;
  if (!user) throw new NotFoundError();
  return user;
}

function checkName(value: string): string {
  const name = value.trim();
  const length = Array.from(name).length;
  if (length === 0 || length > MAX_NAME_LENGTH || name.includes('\u0000')) {
    throw new ValidationError([{ path: 'name', message: 'must be 1 to 255 characters long' }]);
  }
  return name;
}
