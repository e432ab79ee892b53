import type { DeveloperDataService } from '@authz/proto/clients/v1/developer_data';
import type { AccountService } from '@authz/proto/identity/v1/accounts';
import type { AdminService } from '@authz/proto/identity/v1/admin';
import type { ServiceClient } from '@authz/shared/grpc';
import type { AccountsPort } from '../protocol/account-lifecycle/accounts-port.js';

/** AccountsPort over identity's AccountService and AdminService and clients' DeveloperDataService. */
export function accountsOverGrpc(
  accounts: ServiceClient<typeof AccountService>,
  developerData: ServiceClient<typeof DeveloperDataService>,
  admin: ServiceClient<typeof AdminService>,
): AccountsPort {
  return {
    async requireUserSession(userId, sessionId) {
      await accounts.getUserSession({ userId, sessionId });
    },
    async touchSession(sessionId) {
      await accounts.touchSession({ sessionId });
    },
    async beginDeletion({ userId, password, origin }) {
      const { developerId } = await accounts.beginAccountDeletion({ userId, password, origin });
      return { developerId };
    },
    async beginDeletionAsAdmin({ adminUserId, userId, origin }) {
      const { developerId } = await admin.beginUserDeletion({ adminUserId, userId, origin });
      return { developerId };
    },
    async completeDeletion({ userId, origin }) {
      await accounts.completeAccountDeletion({ userId, origin });
    },
    async listPendingDeletions(begunBefore, limit) {
      const { deletions } = await accounts.listPendingDeletions({
        begunBefore: BigInt(begunBefore.getTime()),
        limit,
      });
      return deletions.map(({ userId, developerId }) => ({ userId, developerId }));
    },
    async purgeDeveloper(developerId) {
      await developerData.purgeDeveloper({ developerId });
    },
  };
}
