import type { UserProfile, UserProfileStore } from '../accounts/user-profile.js';
import type { PrismaClient } from '../generated/prisma/client.js';

interface ProfileRow {
  id: string;
  email: string;
  emailVerified: boolean;
  realmId: string;
  name: string | null;
  createdAt: Date;
  updatedAt: Date | null;
  walletEmails: string[];
  federatedEmails: string[];
  federatedProviders: string[];
}

export class PrismaUserProfileStore implements UserProfileStore {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * One statement for the accounts and both credential tables. Each source lists its addresses
   * the most recently used credential first, then the newest; the id settles ties, so the two
   * lists of the federated identities pair up row for row.
   */
  async findProfiles(userIds: readonly string[]): Promise<Map<string, UserProfile>> {
    const rows = await this.prisma.$queryRaw<ProfileRow[]>`
      SELECT u."id"::text, u."email", u."email_verified" AS "emailVerified", u."realm_id"::text AS "realmId",
             u."name", u."created_at" AS "createdAt", u."updated_at" AS "updatedAt",
             ARRAY(SELECT w."email" FROM "identity"."wallet_credentials" w
                   WHERE w."user_id" = u."id" AND w."email" IS NOT NULL
                   ORDER BY w."last_used_at" DESC NULLS LAST, w."created_at" DESC, w."id") AS "walletEmails",
             ARRAY(SELECT f."email" FROM "identity"."federated_credentials" f
                   WHERE f."user_id" = u."id" AND f."email" IS NOT NULL
                   ORDER BY f."last_used_at" DESC NULLS LAST, f."created_at" DESC, f."id") AS "federatedEmails",
             ARRAY(SELECT f."provider_id" FROM "identity"."federated_credentials" f
                   WHERE f."user_id" = u."id" AND f."email" IS NOT NULL
                   ORDER BY f."last_used_at" DESC NULLS LAST, f."created_at" DESC, f."id") AS "federatedProviders"
      FROM "identity"."users" u
      WHERE u."id" = ANY(${userIds}::uuid[]) AND u."deleting_at" IS NULL`;
    return new Map(rows.map((row) => [row.id, toProfile(row)]));
  }
}

function toProfile(row: ProfileRow): UserProfile {
  const { walletEmails, federatedEmails, federatedProviders, ...user } = row;
  return {
    user,
    walletEmails,
    federatedEmails: federatedEmails.map((email, index) => ({
      email,
      providerId: federatedProviders[index]!,
    })),
  };
}
