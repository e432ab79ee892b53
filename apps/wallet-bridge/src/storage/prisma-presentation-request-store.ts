import type { PresentationRequest, PrismaClient } from '../generated/prisma/client.js';
import { STATUS } from '../requests/presentation-request.js';
import type {
  NewPresentationRequest,
  PresentationRequestStore,
  WalletAnswer,
} from '../requests/presentation-request-store.js';

export class PrismaPresentationRequestStore implements PresentationRequestStore {
  constructor(private readonly prisma: PrismaClient) {}

  create(request: NewPresentationRequest): Promise<PresentationRequest> {
    return this.prisma.presentationRequest.create({ data: request });
  }

  async findByHandle(handle: string): Promise<PresentationRequest | undefined> {
    return (await this.prisma.presentationRequest.findUnique({ where: { handle } })) ?? undefined;
  }

  async findByFlowId(flowId: string): Promise<PresentationRequest | undefined> {
    return (await this.prisma.presentationRequest.findUnique({ where: { flowId } })) ?? undefined;
  }

  async serveOnce(handle: string, now: Date): Promise<PresentationRequest | undefined> {
    const { count } = await this.prisma.presentationRequest.updateMany({
      where: { handle, status: STATUS.pending, expiresAt: { gt: now }, servedAt: null },
      data: { servedAt: now },
    });
    if (count !== 1) return undefined;
    return (await this.prisma.presentationRequest.findUnique({ where: { handle } })) ?? undefined;
  }

  async answer(state: string, answer: WalletAnswer, now: Date): Promise<boolean> {
    const { count } = await this.prisma.presentationRequest.updateMany({
      where: { state, status: STATUS.pending, expiresAt: { gt: now } },
      data: {
        status: answer.status,
        vpToken: answer.vpToken,
        responseCodeHash: answer.responseCodeHash,
        answeredAt: now,
      },
    });
    return count === 1;
  }

  async claim(handle: string, from: string): Promise<boolean> {
    const { count } = await this.prisma.presentationRequest.updateMany({
      where: { handle, status: from },
      data: { status: STATUS.settling },
    });
    return count === 1;
  }

  async present(handle: string, presented: string): Promise<void> {
    await this.prisma.presentationRequest.updateMany({
      where: { handle, status: STATUS.settling },
      data: { status: STATUS.presented, presented, vpToken: null },
    });
  }

  async settle(handle: string, status: string, now: Date, from?: string): Promise<boolean> {
    const { count } = await this.prisma.presentationRequest.updateMany({
      where: from === undefined ? { handle } : { handle, status: from },
      data: { status, vpToken: null, presented: null, settledAt: now },
    });
    return count === 1;
  }

  async release(handle: string, to: string): Promise<void> {
    await this.prisma.presentationRequest.updateMany({
      where: { handle, status: STATUS.settling },
      data: { status: to },
    });
  }

  async findByResponseCodeHash(hash: string): Promise<PresentationRequest | undefined> {
    return (
      (await this.prisma.presentationRequest.findUnique({ where: { responseCodeHash: hash } })) ?? undefined
    );
  }

  async redeemResponseCode(flowId: string, hash: string): Promise<boolean> {
    const { count } = await this.prisma.presentationRequest.updateMany({
      where: { flowId, responseCodeHash: hash },
      data: { responseCodeHash: null },
    });
    return count === 1;
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    const { count } = await this.prisma.presentationRequest.deleteMany({
      where: { expiresAt: { lt: cutoff } },
    });
    return count;
  }
}
