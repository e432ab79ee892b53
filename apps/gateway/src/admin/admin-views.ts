import type { AdminClient } from '@authz/proto/clients/v1/client_admin';
import type { AdminUser, AuditEvent } from '@authz/proto/identity/v1/admin';
import type { SigningKeyInfo } from '@authz/proto/oauth/v1/signing_keys';
import { InternalError, ValidationError } from '@authz/shared/errors';

/** interface.md 4.15 resources: camelCase, epoch milliseconds, null for what is not set. */

export function toAdminUserView(user: AdminUser | undefined) {
  if (!user) throw new InternalError({ detail: 'identity answered without a user' });
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    name: user.name ?? null,
    disabled: user.disabledAt !== undefined,
    disabledAt: user.disabledAt === undefined ? null : Number(user.disabledAt),
    admin: user.admin,
    createdAt: Number(user.createdAt),
    updatedAt: user.updatedAt === undefined ? null : Number(user.updatedAt),
  };
}

export function toAdminClientView(admin: AdminClient | undefined) {
  const client = admin?.client;
  if (!admin || !client) throw new InternalError({ detail: 'clients answered without a client' });
  return {
    id: client.id,
    clientId: client.clientId,
    name: client.name,
    developerId: admin.developerId ?? null,
    environment: admin.environment,
    enabled: client.enabled,
    tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
    grantTypes: client.grantTypes,
    redirectUris: client.redirectUris,
    createdAt: Number(client.createdAt),
    updatedAt: Number(client.updatedAt),
    lastUsedAt: client.lastUsedAt === undefined ? null : Number(client.lastUsedAt),
  };
}

export function toAuditEventView(event: AuditEvent) {
  return {
    id: event.id,
    type: event.type,
    actorUserId: event.actorUserId ?? null,
    ip: event.ip ?? null,
    userAgent: event.userAgent ?? null,
    details: JSON.parse(event.detailsJson) as Record<string, unknown>,
    occurredAt: Number(event.occurredAt),
  };
}

/** docs/admin-api.md #10: the state at `now`, from the key's times. */
export function toSigningKeyView(key: SigningKeyInfo, now = Date.now()) {
  const activatesAt = Number(key.activatesAt);
  const retiresAt = key.retiresAt === undefined ? null : Number(key.retiresAt);
  const state =
    now < activatesAt ? 'pending' : retiresAt !== null && now >= retiresAt ? 'retiring' : 'active';
  return {
    kid: key.kid,
    alg: key.alg,
    state,
    createdAt: Number(key.createdAt),
    activatesAt,
    retiresAt,
    publishedUntil: key.publishedUntil === undefined ? null : Number(key.publishedUntil),
  };
}

/** interface.md 4.15 `limit`: 1 to 100; 0 on the wire means the default (50). */
export function pageLimitOf(limit: string | undefined): number {
  if (limit === undefined) return 0;
  const value = Number(limit);
  if (value < 1 || value > 100) throw new ValidationError([{ path: 'limit', message: 'must be 1 to 100' }]);
  return value;
}

/** Absent and empty query values mean "not given". */
export function given(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
