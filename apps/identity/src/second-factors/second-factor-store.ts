import type { OutboxMail } from '../recovery/account-recovery-store.js';

export interface StoredTotp {
  secretEncrypted: string;
  confirmed: boolean;
  lastUsedStep: number | undefined;
}

/** Storage of authenticator apps and recovery codes (docs/conventions.md #7). */
export interface SecondFactorStore {
  findTotp(userId: string): Promise<StoredTotp | undefined>;
  /** Stores a pending secret, replacing a pending one; false when a confirmed one exists. */
  savePendingTotp(userId: string, secretEncrypted: string): Promise<boolean>;
  /**
   * Confirms the pending secret with the step of the confirming code, replaces the recovery
   * codes and queues the notice, all or nothing; false when nothing was pending.
   */
  confirmTotp(
    userId: string,
    step: number,
    recoveryCodeHashes: string[],
    notice: OutboxMail,
  ): Promise<boolean>;
  /** Records `step` as used when it is later than the last used one: false for a replay. */
  useTotpStep(userId: string, step: number): Promise<boolean>;
  /** Marks an unused recovery code used: false when unknown or used. */
  useRecoveryCode(userId: string, codeHash: string, now: Date): Promise<boolean>;
  /** Removes the authenticator app and the recovery codes; the notice goes only when one was confirmed. */
  removeTotp(userId: string, notice: OutboxMail): Promise<boolean>;
  recoveryCodesLeft(userId: string): Promise<number>;
}
