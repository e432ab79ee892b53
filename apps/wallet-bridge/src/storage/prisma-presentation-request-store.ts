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

  async findPending(handle: string, now: Date): Promise<PresentationRequest | undefined> {
    const request = await this.prisma.presentationRequest.findFirst({
      where: { handle, status: STATUS.pending, expiresAt: { gt: now } },
    });
    return request ?? undefined;
  }

  async answer(state: string, answer: WalletAnswer, now: Date): Promise<boolean> {
    const { count } = await this.prisma.presentationRequest.updateMany({
      where: { state, status: STATUS.pending, expiresAt: { gt: now } },
      data: { status: answer.status, vpToken: answer.vpToken, answeredAt: now },
    });
    return count === 1;
  }

  async claim(handle: string): Promise<boolean> {
    const { count } = await this.prisma.presentationRequest.updateMany({
      where: { handle, status: STATUS.answered },
      data: { status: STATUS.settling },
    });
    return count === 1;
  }

  async settle(handle: string, status: string, now: Date): Promise<void> {
    await this.prisma.presentationRequest.update({
      where: { handle },
      data: { status, vpToken: null, settledAt: now },
    });
  }

  async release(handle: string): Promise<void> {
    await this.prisma.presentationRequest.update({ where: { handle }, data: { status: STATUS.answered } });
  }

  async deleteExpiredBefore(cutoff: Date): Promise<number> {
    const { count } = await this.prisma.presentationRequest.deleteMany({
      where: { expiresAt: { lt: cutoff } },
    });
    return count;
  }
}
