import type { PresentationRequest } from '../generated/prisma/client.js';
import type { Purpose, STATUS } from './presentation-request.js';

/** A request to store: identifiers, the binder's keyed hash and, for a link, the user. */
export interface NewPresentationRequest {
  handle: string;
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
}

/**
 * Storage of presentation requests (docs/conventions.md #7): pending -> answered or declined
 * (once) -> settling (one reader) -> a final status. Each transition is one conditional write,
 * so concurrent callers agree on who made it.
 */
export interface PresentationRequestStore {
  create(request: NewPresentationRequest): Promise<PresentationRequest>;
  findByHandle(handle: string): Promise<PresentationRequest | undefined>;
  /** The request by handle while it is pending and expires after `now`. */
  findPending(handle: string, now: Date): Promise<PresentationRequest | undefined>;
  /** Answers the pending, unexpired request with this state; false when there is none. */
  answer(state: string, answer: WalletAnswer, now: Date): Promise<boolean>;
  /** answered -> settling; true for the one caller that claimed it. */
  claim(handle: string): Promise<boolean>;
  /** Sets the final status and erases the vp_token. */
  settle(handle: string, status: string, now: Date): Promise<void>;
  /** Puts a claimed request back to answered, for a later reader to settle. */
  release(handle: string): Promise<void>;
  /** Deletes the requests that expired before `cutoff`; returns how many. */
  deleteExpiredBefore(cutoff: Date): Promise<number>;
}
