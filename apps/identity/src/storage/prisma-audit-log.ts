import type { AuditEntry, AuditLog } from '../audit/audit-log.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

export class PrismaAuditLog implements AuditLog {
  constructor(private readonly prisma: PrismaClient) {}

  record(entry: AuditEntry): Promise<void> {
    return recordAudit(this.prisma, entry);
  }
}

/** Anything that can insert an audit row: the client, or a transaction of another store. */
type AuditWriter = Pick<Prisma.TransactionClient, 'auditEvent'>;

export async function recordAudit(db: AuditWriter, entry: AuditEntry): Promise<void> {
  await db.auditEvent.create({
    data: {
      type: entry.type,
      actorUserId: entry.actorUserId ?? null,
      ip: entry.origin?.ip || null,
      userAgent: entry.origin?.userAgent || null,
      details: entry.details ?? {},
    },
  });
}
