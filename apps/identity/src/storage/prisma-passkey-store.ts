import { countSignInMethods } from '../federation/sign-in-methods.js';
import type { Passkey, PrismaClient } from '../generated/prisma/client.js';
import type { NewPasskey, PasskeyStore, StoredPasskey } from '../passkeys/passkey-store.js';
import type { OutboxMail } from '../recovery/account-recovery-store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class LastSignInMethod extends Error {}

function toStored(row: Passkey): StoredPasskey {
  return { ...row, publicKey: new Uint8Array(row.publicKey), signCount: Number(row.signCount) };
}

export class PrismaPasskeyStore implements PasskeyStore {
  constructor(private readonly prisma: PrismaClient) {}

  async list(userId: string): Promise<StoredPasskey[]> {
    const rows = await this.prisma.passkey.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } });
    return rows.map(toStored);
  }

  async findByCredentialId(credentialId: string): Promise<StoredPasskey | undefined> {
    const row = await this.prisma.passkey.findUnique({ where: { credentialId } });
    return row ? toStored(row) : undefined;
  }

  async add(passkey: NewPasskey, notice: OutboxMail): Promise<StoredPasskey | undefined> {
    return this.prisma.$transaction(async (tx) => {
      const taken = await tx.passkey.findUnique({ where: { credentialId: passkey.credentialId } });
      if (taken) return undefined;
      const row = await tx.passkey.create({
        data: {
          ...passkey,
          publicKey: Buffer.from(passkey.publicKey),
          signCount: BigInt(passkey.signCount),
        },
      });
      await tx.mailOutbox.create({ data: notice });
      return toStored(row);
    });
  }

  async recordUse(
    id: string,
    use: { signCount: number; backedUp: boolean; expectedCount: number },
    now: Date,
  ): Promise<boolean> {
    const updated = await this.prisma.passkey.updateMany({
      where: { id, signCount: BigInt(use.expectedCount) },
      data: { signCount: BigInt(use.signCount), backedUp: use.backedUp, lastUsedAt: now },
    });
    return updated.count > 0;
  }

  async rename(userId: string, id: string, name: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const updated = await this.prisma.passkey.updateMany({ where: { id, userId }, data: { name } });
    return updated.count > 0;
  }

  async remove(
    userId: string,
    id: string,
    notice: OutboxMail,
  ): Promise<'removed' | 'not_found' | 'last_method'> {
    if (!UUID.test(id)) return 'not_found';
    try {
      return await this.prisma.$transaction(async (tx) => {
        const removed = await tx.passkey.deleteMany({ where: { id, userId } });
        if (removed.count === 0) return 'not_found';
        // docs/strong-authentication.md #19: never the last way into the account; the
        // throw rolls the removal back.
        if ((await countSignInMethods(tx, userId)) === 0) throw new LastSignInMethod();
        await tx.mailOutbox.create({ data: notice });
        return 'removed';
      });
    } catch (error) {
      if (error instanceof LastSignInMethod) return 'last_method';
      throw error;
    }
  }
}
