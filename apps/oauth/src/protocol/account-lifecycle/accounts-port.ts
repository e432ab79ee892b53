import type { RequestOrigin } from '../identity-port.js';

/** A deletion begun and not completed (docs/identity.md #19). */
export interface PendingDeletion {
  userId: string;
  developerId: string | undefined;
}

/**
 * What the account lifecycle needs of identity's AccountService and of the clients service's
 * DeveloperDataService (docs/decisions.md #6: oauth may call both), free of gRPC.
 */
export interface AccountsPort {
  /** NotFoundError unless `sessionId` is a live session of `userId`. */
  requireUserSession(userId: string, sessionId: string): Promise<void>;
  /** A use of the session (a refresh-token rotation), coalesced by identity. */
  touchSession(sessionId: string): Promise<void>;
  /** InvalidCredentialsError for a wrong password or an unknown account. */
  beginDeletion(input: { userId: string; password: string; origin: RequestOrigin }): Promise<{
    developerId: string | undefined;
  }>;
  /**
   * Step one for an admin (docs/admin-api.md #3): no password; ForbiddenError unless
   * `adminUserId` holds the admin role, NotFoundError for an unknown account.
   */
  beginDeletionAsAdmin(input: { adminUserId: string; userId: string; origin: RequestOrigin }): Promise<{
    developerId: string | undefined;
  }>;
  completeDeletion(input: { userId: string; origin: RequestOrigin }): Promise<void>;
  listPendingDeletions(begunBefore: Date, limit: number): Promise<PendingDeletion[]>;
  /** Deletes the developer's clients and API keys; idempotent. */
  purgeDeveloper(developerId: string): Promise<void>;
}
