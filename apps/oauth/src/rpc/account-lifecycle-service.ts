import type { AccountLifecycleService } from '@authz/proto/oauth/v1/accounts';
import type { RequestOrigin as WireOrigin } from '@authz/proto/oauth/v1/oauth';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { deleteAccount, deleteAccountAsAdmin } from '../protocol/account-lifecycle/delete-account.js';
import { endUserSession } from '../protocol/account-lifecycle/end-user-session.js';
import { purgeUserGrants } from '../protocol/account-lifecycle/purge-user-grants.js';
import type { RequestOrigin } from '../protocol/identity-port.js';
import type { Registry } from '../registry.js';

/** The account lifecycle (interface.md 4.10): thin translations (docs/conventions.md #2). */
export function accountLifecycleServiceImplementation(
  deps: Registry,
): ServiceImplementation<typeof AccountLifecycleService> {
  return {
    async endUserSession({ userId, sessionId, origin }) {
      await endUserSession(deps, { userId, sessionId, origin: fromWire(origin) });
      return {};
    },
    async deleteAccount({ userId, password, origin }) {
      await deleteAccount(deps, { userId, password, origin: fromWire(origin) });
      return {};
    },
    async deleteAccountAsAdmin({ adminUserId, userId, origin }) {
      await deleteAccountAsAdmin(deps, { adminUserId, userId, origin: fromWire(origin) });
      return {};
    },
    async purgeUserGrants({ userId }) {
      await purgeUserGrants(deps, userId);
      return {};
    },
  };
}

function fromWire(origin: WireOrigin | undefined): RequestOrigin {
  return { ip: origin?.ip ?? '', userAgent: origin?.userAgent ?? '' };
}
