import type { JWK } from 'jose';
import type { PrismaClient, SigningKey } from '../generated/prisma/client.js';
import {
  SIGNING_ALGS,
  type NewSigningKey,
  type SigningAlg,
  type SigningKeyRecord,
  type SigningKeyStore,
} from './signing-key-store.js';

// Transaction-scoped advisory lock taken by every writer of oauth.signing_keys (any number,
// distinct from Prisma's migration lock 72707369).
const SIGNING_KEYS_LOCK = 0x6f61_6b31;

type Transaction = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export class PrismaSigningKeyStore implements SigningKeyStore {
  constructor(private readonly prisma: PrismaClient) {}

  async listPublished(now: Date): Promise<SigningKeyRecord[]> {
    const rows = await this.prisma.signingKey.findMany({
      where: { OR: [{ status: 'active' }, { status: 'retired', publishUntil: { gt: now } }] },
      orderBy: { createdAt: 'desc' },
    });
    return rows.map(toRecord);
  }

  ensureActive(alg: SigningAlg, create: () => Promise<NewSigningKey>): Promise<boolean> {
    return this.locked(async (tx) => {
      if (await tx.signingKey.findFirst({ where: { status: 'active', alg } })) return false;
      await tx.signingKey.create({ data: { ...(await create()), status: 'active' } });
      return true;
    });
  }

  rotate(next: readonly NewSigningKey[], activatesAt: Date, publishUntil: Date): Promise<void> {
    return this.locked(async (tx) => {
      for (const key of next) {
        await tx.signingKey.updateMany({
          where: { status: 'active', alg: key.alg },
          data: { status: 'retired', retiredAt: activatesAt, publishUntil },
        });
        await tx.signingKey.create({ data: { ...key, status: 'active', activatesAt } });
      }
    });
  }

  private locked<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${SIGNING_KEYS_LOCK})`);
      return work(tx);
    });
  }
}

function toRecord(row: SigningKey): SigningKeyRecord {
  return {
    kid: row.kid,
    alg: signingAlg(row.alg),
    publicJwk: row.publicJwk as JWK,
    privateKeyEncrypted: row.privateKeyEncrypted,
    status: row.status === 'active' ? 'active' : 'retired',
    createdAt: row.createdAt,
    retiredAt: row.retiredAt,
    publishUntil: row.publishUntil,
    activatesAt: row.activatesAt,
  };
}

// A row of an algorithm this code does not know is an error, never another algorithm's key.
function signingAlg(alg: string): SigningAlg {
  const known = SIGNING_ALGS.find((candidate) => candidate === alg);
  if (!known) throw new Error(`signing key of unknown algorithm ${alg}`);
  return known;
}
