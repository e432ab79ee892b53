import type { PresentationRequest } from '../generated/prisma/client.js';
import type { Purpose, STATUS } from './presentation-request.js';

/** A request to store: identifiers, the binder's keyed hash and, for a link, the user. */
export interface NewPresentationRequest {
  handle: string;
  flowId: string;
  purpose: Purpose;
  state: string;
  nonce: string;
  binderHash: string;
  userId: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** What the wallet's direct_post turns a pending request into. */
export interface WalletAnswer {
  status: typeof STATUS.answered | typeof STATUS.declined;
  vpToken: string | null;
  /** Keyed hash of the response code handed to the wallet for the browser (docs/wallet.md #18). */
  responseCodeHash: string;
}

/**
 * Storage of presentation requests (docs/conventions.md #7): pending -> answered or declined
 * (once) -> settling (one reader) -> presented (verified, docs/wallet.md #16) -> settling (the
 * one decision) -> a final status. Each transition is one conditional write, so concurrent
 * callers agree on who made it.
 */
export interface PresentationRequestStore {
  create(request: NewPresentationRequest): Promise<PresentationRequest>;
  findByHandle(handle: string): Promise<PresentationRequest | undefined>;
  /** By the flow's name in pages and the link routes (docs/wallet.md #17). */
  findByFlowId(flowId: string): Promise<PresentationRequest | undefined>;
  /**
   * The pending request by transport handle, unexpired at `now`, the first time only: marks it
   * served in the same conditional write (docs/wallet.md #20).
   */
  serveOnce(handle: string, now: Date): Promise<PresentationRequest | undefined>;
  /** Answers the pending, unexpired request with this state; false when there is none. */
  answer(state: string, answer: WalletAnswer, now: Date): Promise<boolean>;
  /** `from` (answered or presented) -> settling; true for the one caller that claimed it. */
  claim(handle: string, from: string): Promise<boolean>;
  /** settling -> presented with the verified credential's JSON; the vp_token is erased. */
  present(handle: string, presented: string): Promise<void>;
  /**
   * Sets the final status and erases the vp_token and the presented credential; with `from`,
   * only when the status is still `from` (false otherwise).
   */
  settle(handle: string, status: string, now: Date, from?: string): Promise<boolean>;
  /** Puts a claimed request back to `to` (answered or presented), for a later caller. */
  release(handle: string, to: string): Promise<void>;
  /** The request holding this response code hash, if any. */
  findByResponseCodeHash(hash: string): Promise<PresentationRequest | undefined>;
  /** Clears the response code hash if the flow still holds it; true for the one caller. */
  redeemResponseCode(flowId: string, hash: string): Promise<boolean>;
  /** Deletes the requests that expired before `cutoff`; returns how many. */
  deleteExpiredBefore(cutoff: Date): Promise<number>;
}
