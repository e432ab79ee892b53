import type { AuditService } from '@authz/proto/identity/v1/identity';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { recordDelegationEvent } from '../audit/record-delegation-event.js';
import type { Registry } from '../registry.js';

/** AuditService: events other services witness, written to identity's audit log. */
export function auditServiceImplementation(registry: Registry): ServiceImplementation<typeof AuditService> {
  return {
    async recordAuditEvent(request) {
      await recordDelegationEvent(registry, request);
      return {};
    },
  };
}
