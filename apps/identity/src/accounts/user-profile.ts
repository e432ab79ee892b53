import { NotFoundError } from '@authz/shared/errors';
import type { User } from '../generated/prisma/client.js';
import { isUuid } from './get-user.js';

/** The account fields GetUser answers with (interface.md 2.1). */
export type ProfileUser = Pick<
  User,
  'id' | 'email' | 'emailVerified' | 'realmId' | 'name' | 'createdAt' | 'updatedAt'
>;

/**
 * A live account with every stored source of its verified addresses: what GetUser answers
 * (interface.md 4.3 UserInfo, docs/identity.md #13).
 */
export interface UserProfile {
  user: ProfileUser;
  /** Addresses a trusted issuer attested in a wallet presentation, the most recently used credential first. */
  walletEmails: string[];
  /** Addresses an upstream trusted for email verified, the most recently used identity first. */
  federatedEmails: { email: string; providerId: string }[];
}

export interface UserProfileStore {
  /**
   * The live accounts (not being deleted, docs/identity.md #19) among `userIds`, which are
   * UUIDs, each with its verified addresses, read in one statement.
   */
  findProfiles(userIds: readonly string[]): Promise<Map<string, UserProfile>>;
}

/** One live account's profile by id (user-profile-loader.ts). */
export interface UserProfiles {
  find(userId: string): Promise<UserProfile | undefined>;
}

/** A malformed id cannot name a user: the same NotFoundError as an unknown one. */
export async function getUserProfile(profiles: UserProfiles, userId: string): Promise<UserProfile> {
  const profile = isUuid(userId) ? await profiles.find(userId) : undefined;
  if (!profile) throw new NotFoundError();
  return profile;
}
