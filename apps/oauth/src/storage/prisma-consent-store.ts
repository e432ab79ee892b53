import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { ConsentGrant, ConsentStore, StoredConsent } from '../protocol/consent/consent-store.js';

// Consent ids are UUIDs; anything else names no consent (and would fail the uuid cast).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface ConsentRow {
  id: string;
  user_id: string;
  client_id: string;
  client_name: string;
  scopes: string[];
  granted_at: Date;
}

export class PrismaConsentStore implements ConsentStore {
  constructor(private readonly prisma: PrismaClient) {}

  async findLive(userId: string, clientId: string): Promise<StoredConsent | undefined> {
    const row = await this.prisma.consent.findFirst({ where: { userId, clientId, live: true } });
    return row ? toConsent(row) : undefined;
  }

  async grant({ userId, clientId, clientName, scopes, grantedAt }: ConsentGrant): Promise<StoredConsent> {
    // One statement, so concurrent grants neither create two live consents (the unique index
    // on user, client and live) nor lose scopes: the union keeps the existing order first.
    const [row] = await this.prisma.$queryRaw<ConsentRow[]>`
      INSERT INTO "oauth"."consents" (id, user_id, client_id, client_name, scopes, granted_at, live)
      VALUES (${randomUUID()}::uuid, ${userId}, ${clientId}, ${clientName}, ${[...scopes]}::text[], ${grantedAt}, true)
      ON CONFLICT (user_id, client_id, live) DO UPDATE SET
        client_name = EXCLUDED.client_name,
        granted_at = EXCLUDED.granted_at,
        scopes = ARRAY(
          SELECT scope FROM unnest(consents.scopes || EXCLUDED.scopes) WITH ORDINALITY AS t(scope, position)
          GROUP BY scope ORDER BY min(position)
        )
      RETURNING id, user_id, client_id, client_name, scopes, granted_at`;
    if (!row) throw new Error('consent upsert returned no row');
    return {
      id: row.id,
      userId: row.user_id,
      clientId: row.client_id,
      clientName: row.client_name,
      scopes: row.scopes,
      grantedAt: row.granted_at,
    };
  }

  async listLive(userId: string): Promise<StoredConsent[]> {
    const rows = await this.prisma.consent.findMany({
      where: { userId, live: true },
      orderBy: [{ grantedAt: 'desc' }, { id: 'asc' }],
    });
    return rows.map(toConsent);
  }

  async revoke(userId: string, consentId: string, now: Date): Promise<boolean> {
    if (!UUID.test(consentId)) return false;
    const { count } = await this.prisma.consent.updateMany({
      where: { id: consentId, userId, live: true },
      data: { live: null, revokedAt: now },
    });
    return count === 1;
  }
}

function toConsent(row: {
  id: string;
  userId: string;
  clientId: string;
  clientName: string;
  scopes: string[];
  grantedAt: Date;
}): StoredConsent {
  const { id, userId, clientId, clientName, scopes, grantedAt } = row;
  return { id, userId, clientId, clientName, scopes, grantedAt };
}
