import type {
  AdminStore,
  AdministeredUser,
  AuditEventFilter,
  StoredAuditEvent,
  UserChanges,
} from '../admin/admin-store.js';
import type { KeysetPosition } from '@authz/shared/pagination';
import type { AuditEntry } from '../audit/audit-log.js';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import { recordAudit } from './prisma-audit-log.js';

type Tx = Prisma.TransactionClient;

export class PrismaAdminStore implements AdminStore {
  constructor(private readonly prisma: PrismaClient) {}

  async isAdmin(userId: string): Promise<boolean> {
    const role = await this.prisma.adminRole.findFirst({
      // A disabled admin is no admin while disabled (docs/admin-api.md #2).
      where: { userId, user: { deletingAt: null, disabledAt: null } },
      select: { userId: true },
    });
    return role !== null;
  }

  async listUsers(filter: {
    query?: string;
    after?: KeysetPosition;
    limit: number;
  }): Promise<AdministeredUser[]> {
    const conditions: Prisma.Sql[] = [Prisma.sql`u."deleting_at" IS NULL`];
    const query = filter.query?.trim().toLowerCase();
    if (query) {
      // strpos, not LIKE: `%` and `_` in a search are plain characters (docs/admin-api.md #6).
      conditions.push(
        Prisma.sql`(strpos(u."email_lower", ${query}) > 0 OR strpos(lower(coalesce(u."name", '')), ${query}) > 0
          OR u."id"::text = ${query})`,
      );
    }
    if (filter.after) {
      conditions.push(Prisma.sql`(u."created_at", u."id") > (${filter.after.at}, ${filter.after.id}::uuid)`);
    }
    const rows = await this.prisma.$queryRaw<UserRow[]>`
      SELECT u."id"::text, u."email", u."email_lower", u."email_verified", u."realm_id"::text, u."name",
             u."created_at", u."updated_at", u."deleting_at", u."disabled_at", (a."user_id" IS NOT NULL) AS "admin"
      FROM "identity"."users" u LEFT JOIN "identity"."admin_roles" a ON a."user_id" = u."id"
      WHERE ${Prisma.join(conditions, ' AND ')}
      ORDER BY u."created_at", u."id"
      LIMIT ${filter.limit}`;
    return rows.map(toAdministeredUser);
  }

  async findUser(userId: string): Promise<AdministeredUser | undefined> {
    const found = await this.prisma.user.findUnique({
      where: { id: userId, deletingAt: null },
      include: { adminRole: true },
    });
    if (!found) return undefined;
    const { adminRole, ...user } = found;
    return { user, admin: adminRole !== null };
  }

  updateUser(
    userId: string,
    changes: UserChanges,
    audits: (changed: { disabled?: boolean; emailVerified?: boolean }) => AuditEntry[],
  ): Promise<{ record: AdministeredUser; endedSessions: number } | undefined> {
    return this.prisma.$transaction(async (tx) => {
      const before = await lockLiveUser(tx, userId);
      if (!before) return undefined;
      const now = new Date();
      const changed: { disabled?: boolean; emailVerified?: boolean } = {};
      if (changes.disabled !== undefined && changes.disabled !== (before.disabled_at !== null)) {
        changed.disabled = changes.disabled;
      }
      if (changes.emailVerified !== undefined && changes.emailVerified !== before.email_verified) {
        changed.emailVerified = changes.emailVerified;
      }
      if (changed.disabled !== undefined || changed.emailVerified !== undefined) {
        await tx.user.update({
          where: { id: userId },
          data: {
            ...(changed.disabled === undefined ? {} : { disabledAt: changed.disabled ? now : null }),
            ...(changed.emailVerified === undefined ? {} : { emailVerified: changed.emailVerified }),
            updatedAt: now,
          },
        });
      }
      // Disabling ends every session, also those a sign-in opened meanwhile: the sessions
      // trigger waits on the row lock taken above (docs/admin-api.md #4).
      const endedSessions = changes.disabled === true ? await endLiveSessions(tx, userId, now) : 0;
      for (const entry of audits(changed)) await recordAudit(tx, entry);
      const after = await tx.user.findUniqueOrThrow({ where: { id: userId }, include: { adminRole: true } });
      const { adminRole, ...user } = after;
      return { record: { user, admin: adminRole !== null }, endedSessions };
    });
  }

  endSessions(userId: string, audit: (ended: number) => AuditEntry): Promise<number | undefined> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await lockLiveUser(tx, userId))) return undefined;
      const ended = await endLiveSessions(tx, userId, new Date());
      await recordAudit(tx, audit(ended));
      return ended;
    });
  }

  async listAuditEvents(filter: AuditEventFilter): Promise<StoredAuditEvent[]> {
    const conditions: Prisma.Sql[] = [Prisma.sql`TRUE`];
    if (filter.userId !== undefined) {
      conditions.push(
        Prisma.sql`("actor_user_id" = ${filter.userId}::uuid OR "details"->>'targetUserId' = ${filter.userId})`,
      );
    }
    if (filter.type !== undefined) conditions.push(Prisma.sql`"type" = ${filter.type}`);
    if (filter.since !== undefined) conditions.push(Prisma.sql`"occurred_at" >= ${filter.since}`);
    if (filter.before !== undefined) {
      conditions.push(Prisma.sql`("occurred_at", "id") < (${filter.before.at}, ${filter.before.id}::bigint)`);
    }
    const rows = await this.prisma.$queryRaw<
      {
        id: string;
        type: string;
        actor_user_id: string | null;
        ip: string | null;
        user_agent: string | null;
        details: unknown;
        occurred_at: Date;
      }[]
    >`
      SELECT "id"::text, "type", "actor_user_id"::text, "ip", "user_agent", "details", "occurred_at"
      FROM "identity"."audit_events"
      WHERE ${Prisma.join(conditions, ' AND ')}
      ORDER BY "occurred_at" DESC, "id" DESC
      LIMIT ${filter.limit}`;
    return rows.map((row) => ({
      id: row.id,
      type: row.type,
      actorUserId: row.actor_user_id,
      ip: row.ip,
      userAgent: row.user_agent,
      details: row.details,
      occurredAt: row.occurred_at,
    }));
  }

  setRole(
    emailLower: string,
    grant: boolean,
    audit: (userId: string) => AuditEntry,
  ): Promise<'changed' | 'unchanged' | 'unknown'> {
    return this.prisma.$transaction(async (tx) => {
      const user = await tx.user.findUnique({
        where: { emailLower, deletingAt: null },
        select: { id: true },
      });
      if (!user) return 'unknown';
      const changed = grant
        ? (await tx.adminRole.createMany({ data: [{ userId: user.id }], skipDuplicates: true })).count
        : (await tx.adminRole.deleteMany({ where: { userId: user.id } })).count;
      if (changed === 0) return 'unchanged';
      await recordAudit(tx, audit(user.id));
      return 'changed';
    });
  }
}

interface UserRow {
  id: string;
  email: string;
  email_lower: string;
  email_verified: boolean;
  realm_id: string;
  name: string | null;
  created_at: Date;
  updated_at: Date | null;
  deleting_at: Date | null;
  disabled_at: Date | null;
  admin: boolean;
}

function toAdministeredUser(row: UserRow): AdministeredUser {
  return {
    user: {
      id: row.id,
      email: row.email,
      emailLower: row.email_lower,
      emailVerified: row.email_verified,
      realmId: row.realm_id,
      name: row.name,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      deletingAt: row.deleting_at,
      disabledAt: row.disabled_at,
    },
    admin: row.admin,
  };
}

/** The live account's row, locked for this transaction; undefined when unknown or deleting. */
async function lockLiveUser(
  tx: Tx,
  userId: string,
): Promise<{ disabled_at: Date | null; email_verified: boolean } | undefined> {
  const rows = await tx.$queryRaw<{ disabled_at: Date | null; email_verified: boolean }[]>`
    SELECT "disabled_at", "email_verified" FROM "identity"."users"
    WHERE "id" = ${userId}::uuid AND "deleting_at" IS NULL FOR UPDATE`;
  return rows[0];
}

/** Sets ended_at: the sessions trigger relays each end to oauth (docs/identity.md #17). */
async function endLiveSessions(tx: Tx, userId: string, now: Date): Promise<number> {
  const ended = await tx.session.updateMany({ where: { userId, endedAt: null }, data: { endedAt: now } });
  return ended.count;
}
