import { create } from '@bufbuild/protobuf';
import { RequestOriginSchema } from '@authz/proto/identity/v1/identity';
import { describe, expect, it } from 'vitest';
import { ORIGIN, registered, type StoresUnderTest } from './identity-stores.js';

/** The behaviour every AuditLog must show (docs/conventions.md #7). */
export function describeAuditLog(name: string, subject: () => StoresUnderTest): void {
  const stores = () => subject().stores;

  describe(`${name} (AuditLog contract)`, () => {
    it('adds each event as given, in order; empty origin parts are stored as absent', async () => {
      const { user } = await registered(stores());
      await stores().audit.record({
        type: 'token_exchange',
        actorUserId: user.id,
        origin: ORIGIN,
        details: { clientId: 'c', actorChain: ['a', 'b'], browserSession: true },
      });
      await stores().audit.record({
        type: 'logout',
        actorUserId: user.id,
        origin: create(RequestOriginSchema, {}),
      });
      await stores().audit.record({ type: 'login_failure', actorUserId: user.id, origin: undefined });
      expect(await subject().probe.auditEvents(user.id)).toEqual([
        { type: 'registration', ip: ORIGIN.ip, userAgent: ORIGIN.userAgent, details: {} },
        {
          type: 'token_exchange',
          ip: ORIGIN.ip,
          userAgent: ORIGIN.userAgent,
          details: { clientId: 'c', actorChain: ['a', 'b'], browserSession: true },
        },
        { type: 'logout', ip: null, userAgent: null, details: {} },
        { type: 'login_failure', ip: null, userAgent: null, details: {} },
      ]);
    });
  });
}
