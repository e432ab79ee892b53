import type { RequestOrigin } from '../identity-port.js';

/** The delegations recorded in identity's audit log (docs/identity.md #14). */
export type DelegationEventType = 'token_exchange' | 'id_jag_issued' | 'id_jag_accepted';

export interface DelegationEvent {
  type: DelegationEventType;
  /** The issued token's `sub`. */
  userId: string;
  /** The authenticated client that asked. */
  clientId: string;
  /** The issued token's `act` chain, the current actor first (RFC 8693 section 4.1). */
  actorChain: readonly string[];
  origin: RequestOrigin;
  /** Small and never secret: token ids, audience, scope, issuer. */
  details: Record<string, string>;
}

/** What oauth needs to write the audit log, which identity owns (docs/decisions.md #6), free of gRPC. */
export interface AuditPort {
  /** Fails when the event cannot be recorded; the token is then not handed out. */
  recordDelegation(event: DelegationEvent): Promise<void>;
}
