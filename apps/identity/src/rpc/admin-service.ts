import type { AdminService } from '@authz/proto/identity/v1/admin';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { toAdminUserMessage } from '../admin/admin-user-view.js';
import { authorizeAdmin } from '../admin/authorize-admin.js';
import { listAuditEvents } from '../admin/list-audit-events.js';
import {
  beginUserDeletion,
  endUserSessions,
  getAdminUser,
  listUsers,
  sendPasswordReset,
  updateAdminUser,
} from '../admin/manage-users.js';
import { recordAdminEvent } from '../admin/record-admin-event.js';
import type { Registry } from '../registry.js';

/** The operator API's identity part (interface.md 4.15): thin translations (docs/conventions.md #2). */
export function adminServiceImplementation(registry: Registry): ServiceImplementation<typeof AdminService> {
  return {
    async authorizeAdmin({ adminUserId }) {
      await authorizeAdmin(registry, adminUserId);
      return {};
    },
    async listUsers(request) {
      const { users, nextCursor } = await listUsers(registry, request);
      return { users: users.map(toAdminUserMessage), ...(nextCursor ? { nextCursor } : {}) };
    },
    async getAdminUser(request) {
      return { user: toAdminUserMessage(await getAdminUser(registry, request)) };
    },
    async updateAdminUser(request) {
      const { record, endedSessions } = await updateAdminUser(registry, request);
      // The sessions it ended go out to oauth at once (docs/identity.md #17).
      if (endedSessions > 0) registry.onSessionEnded();
      return { user: toAdminUserMessage(record), endedSessions };
    },
    async endUserSessions(request) {
      const endedSessions = await endUserSessions(registry, request);
      if (endedSessions > 0) registry.onSessionEnded();
      return { endedSessions };
    },
    async sendPasswordReset(request) {
      await sendPasswordReset(registry, request);
      return {};
    },
    async beginUserDeletion(request) {
      const { developerId } = await beginUserDeletion(registry, request);
      registry.onSessionEnded();
      return developerId === undefined ? {} : { developerId };
    },
    async listAuditEvents(request) {
      const { events, nextCursor } = await listAuditEvents(registry, request);
      return {
        events: events.map((event) => ({
          id: event.id,
          type: event.type,
          ...(event.actorUserId === null ? {} : { actorUserId: event.actorUserId }),
          ...(event.ip === null ? {} : { ip: event.ip }),
          ...(event.userAgent === null ? {} : { userAgent: event.userAgent }),
          detailsJson: JSON.stringify(event.details ?? {}),
          occurredAt: BigInt(event.occurredAt.getTime()),
        })),
        ...(nextCursor ? { nextCursor } : {}),
      };
    },
    async recordAdminEvent(request) {
      await recordAdminEvent(registry, request);
      return {};
    },
  };
}
