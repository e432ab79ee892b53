/** A user's live consent to a client (interface.md 2.3). */
export interface StoredConsent {
  id: string;
  userId: string;
  clientId: string;
  clientName: string;
  scopes: string[];
  grantedAt: Date;
}

export interface ConsentGrant {
  userId: string;
  clientId: string;
  clientName: string;
  scopes: readonly string[];
  grantedAt: Date;
}

/** Storage of consents (docs/conventions.md #7): at most one live consent per user and client. */
export interface ConsentStore {
  findLive(userId: string, clientId: string): Promise<StoredConsent | undefined>;
  /**
   * Creates the live consent or, atomically, adds the scopes to the existing one and updates
   * its client name and grantedAt (docs/authorization.md #10).
   */
  grant(grant: ConsentGrant): Promise<StoredConsent>;
  /** Live consents of the user, newest grant first. */
  listLive(userId: string): Promise<StoredConsent[]>;
  /** Revokes a live consent of the user; false when there is none with that id. */
  revoke(userId: string, consentId: string, now: Date): Promise<boolean>;
}
