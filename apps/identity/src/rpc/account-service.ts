import type { AccountService } from '@authz/proto/identity/v1/accounts';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { toUserMessage } from '../accounts/user-view.js';
import { beginAccountDeletion } from '../deletion/begin-account-deletion.js';
import { completeAccountDeletion } from '../deletion/complete-account-deletion.js';
import { listPendingDeletions } from '../deletion/list-pending-deletions.js';
import { updateProfile } from '../profile/update-profile.js';
import type { Registry } from '../registry.js';
import { getUserSession, listSessions, toSessionSummary, touchSession } from '../sessions/list-sessions.js';

/** The gRPC face of the account lifecycle (interface.md 4.10): thin translations (docs/conventions.md #2). */
export function accountServiceImplementation(
  registry: Registry,
): ServiceImplementation<typeof AccountService> {
  return {
    async listSessions(request) {
      const sessions = await listSessions(registry, request.userId, request.currentSessionId);
      return { sessions: sessions.map(toSessionSummary) };
    },
    async getUserSession(request) {
      return { session: toSessionSummary(await getUserSession(registry, request.userId, request.sessionId)) };
    },
    async touchSession(request) {
      await touchSession(registry, request.sessionId);
      return {};
    },
    async updateProfile(request) {
      return { user: toUserMessage(await updateProfile(registry, request)) };
    },
    async beginAccountDeletion(request) {
      const { developerId } = await beginAccountDeletion(registry, request);
      // The sessions it ended go out to oauth at once (docs/identity.md #17), not at the next poll.
      registry.onSessionEnded();
      return developerId === undefined ? {} : { developerId };
    },
    async completeAccountDeletion(request) {
      await completeAccountDeletion(registry, request);
      return {};
    },
    async listPendingDeletions(request) {
      const deletions = await listPendingDeletions(registry, request);
      return {
        deletions: deletions.map(({ userId, developerId }) =>
          developerId === undefined ? { userId } : { userId, developerId },
        ),
      };
    },
  };
}
