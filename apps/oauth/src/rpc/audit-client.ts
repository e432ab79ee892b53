import type { AuditService } from '@authz/proto/identity/v1/identity';
import type { ServiceClient } from '@authz/shared/grpc';
import type { AuditPort } from '../protocol/delegation/audit-port.js';

/** AuditPort over identity's AuditService (docs/identity.md #14). */
export function auditOverGrpc(client: ServiceClient<typeof AuditService>): AuditPort {
  return {
    async recordDelegation({ type, userId, clientId, actorChain, origin, details }) {
      await client.recordAuditEvent({
        type,
        userId,
        clientId,
        actorChain: [...actorChain],
        origin,
        details,
      });
    },
  };
}
