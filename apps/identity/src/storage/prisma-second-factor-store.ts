import type { PrismaClient } from '../generated/prisma/client.js';
import type { OutboxMail } from '../recovery/account-recovery-store.js';
import type { SecondFactorStore, StoredTotp } from '../second-factors/second-factor-store.js';

export class PrismaSecondFactorStore implements SecondFactorStore {
  constructor(private readonly prisma: PrismaClient) {}

  async findTotp(userId: string): Promise<StoredTotp | undefined> {
    const found = await this.prisma.totpFactor.findUnique({ where: { userId } });
    if (!found) return undefined;
    return {
      secretEncrypted: found.secretEncrypted,
      confirmed: found.confirmedAt !== null,
      lastUsedStep: found.lastUsedStep === null ? undefined : Number(found.lastUsedStep),
    };
  }

  async savePendingTotp(userId: string, secretEncrypted: string): Promise<boolean> {
    // One statement: a confirmation racing this call either lands first (and this one changes
    // nothing) or confirms the secret it read.
    const rows = await this.prisma.$executeRaw`
      INSERT INTO "identity"."totp_factors" ("user_id", "secret_encrypted")
      VALUES (${userId}::uuid, ${secretEncrypted})
      ON CONFLICT ("user_id") DO UPDATE SET "secret_encrypted" = EXCLUDED."secret_encrypted",
        "created_at" = CURRENT_TIMESTAMP, "last_used_step" = NULL
      WHERE "totp_factors"."confirmed_at" IS NULL`;
    return rows > 0;
  }

  confirmTotp(
    userId: string,
    step: number,
    recoveryCodeHashes: string[],
    notice: OutboxMail,
  ): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const confirmed = await tx.totpFactor.updateMany({
        where: { userId, confirmedAt: null },
        data: { confirmedAt: new Date(), lastUsedStep: BigInt(step) },
      });
      if (confirmed.count === 0) return false;
      await tx.recoveryCode.deleteMany({ where: { userId } });
      await tx.recoveryCode.createMany({
        data: recoveryCodeHashes.map((codeHash) => ({ userId, codeHash })),
      });
      await tx.mailOutbox.create({ data: notice });
      return true;
    });
  }

  async useTotpStep(userId: string, step: number): Promise<boolean> {
    const used = await this.prisma.totpFactor.updateMany({
      where: {
        userId,
        confirmedAt: { not: null },
        OR: [{ lastUsedStep: null }, { lastUsedStep: { lt: BigInt(step) } }],
      },
      data: { lastUsedStep: BigInt(step) },
    });
    return used.count > 0;
  }

  async useRecoveryCode(userId: string, codeHash: string, now: Date): Promise<boolean> {
    const used = await this.prisma.recoveryCode.updateMany({
      where: { userId, codeHash, usedAt: null },
      data: { usedAt: now },
    });
    return used.count > 0;
  }

  removeTotp(userId: string, notice: OutboxMail): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const removed = await tx.totpFactor.deleteMany({ where: { userId, confirmedAt: { not: null } } });
      await tx.totpFactor.deleteMany({ where: { userId } });
      await tx.recoveryCode.deleteMany({ where: { userId } });
      if (removed.count > 0) await tx.mailOutbox.create({ data: notice });
      return removed.count > 0;
    });
  }

  recoveryCodesLeft(userId: string): Promise<number> {
    return this.prisma.recoveryCode.count({ where: { userId, usedAt: null } });
  }
}
