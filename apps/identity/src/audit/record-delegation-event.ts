import type { RecordAuditEventRequest } from '@authz/proto/identity/v1/identity';
import { ValidationError } from '@authz/shared/errors';
import { isUuid } from '../accounts/get-user.js';
import type { Registry } from '../registry.js';
import { DELEGATION_EVENT_TYPES, type DelegationEventType } from './audit-log.js';

// A chain deeper than oauth ever mints (docs/agents.md: at most 5 actors), with room to spare.
const MAX_ACTORS = 16;
const MAX_VALUE_LENGTH = 2048;

/**
 * docs/identity.md #14: a delegation oauth performed (RFC 8693 token exchange, ID-JAG issued or
 * accepted), recorded with the user, the client and the actor chain. Only these event types
 * are accepted, so no caller can forge a login or registration event.
 */
export async function recordDelegationEvent(
  deps: Pick<Registry, 'audit'>,
  request: RecordAuditEventRequest,
): Promise<void> {
  const type = checkType(request.type);
  if (!isUuid(request.userId)) throw invalid('userId', 'must be a user id');
  if (request.clientId === '' || request.clientId.length > MAX_VALUE_LENGTH) {
    throw invalid('clientId', 'is required');
  }
  if (request.actorChain.length > MAX_ACTORS) throw invalid('actorChain', 'is too long');
  const extra = Object.entries(request.details);
  if (extra.some(([name, value]) => name.length > 64 || value.length > MAX_VALUE_LENGTH)) {
    throw invalid('details', 'entries must be short');
  }
  await deps.audit.record({
    type,
    actorUserId: request.userId,
    origin: request.origin,
    details: { ...Object.fromEntries(extra), clientId: request.clientId, actorChain: request.actorChain },
  });
}

function checkType(type: string): DelegationEventType {
  const known = DELEGATION_EVENT_TYPES.find((candidate) => candidate === type);
  if (!known) throw invalid('type', `must be one of ${DELEGATION_EVENT_TYPES.join(', ')}`);
  return known;
}

function invalid(path: string, message: string): ValidationError {
  return new ValidationError([{ path, message }]);
}
