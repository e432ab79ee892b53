import type { RequestOrigin } from '../sign-in/identity-port.js';

/**
 * What the wallet pages need of wallet-bridge (docs/decisions.md #6: consent-ui may call it). Every
 * call but isAvailable() fails with NotFoundError while wallet federation is off or has no
 * verifier profile (docs/decisions.md #25).
 */
export interface WalletPort {
  /** False while wallet federation is off or has no usable verifier profile. */
  isAvailable(options?: { timeoutMs?: number }): Promise<boolean>;
  /** StartSignIn: a sign-in flow bound to this browser by `binder`. */
  startSignIn(origin: RequestOrigin): Promise<WalletFlow>;
  /**
   * StartLink: UnauthorizedError without a live session, InvalidCsrfTokenError when `csrfToken`
   * is not the session's (docs/decisions.md #17, #19).
   */
  startLink(request: { sessionToken: string; csrfToken: string; origin: RequestOrigin }): Promise<WalletFlow>;
  /** GetSignInOutcome: a signed-in outcome is delivered once, a second read is refused. */
  getSignInOutcome(request: {
    handle: string;
    binder: string;
    origin: RequestOrigin;
  }): Promise<SignInOutcome>;
  /**
   * GetLinkOutcome: UnauthorizedError without a live session; NotFoundError, the uniform
   * refusal, for a flow that is not this browser's and this user's.
   */
  getLinkOutcome(request: { handle: string; binder: string; sessionToken: string }): Promise<LinkOutcome>;
  /**
   * ConfirmSignIn: the browser's decision on a presented sign-in (docs/wallet.md #16); the page
   * checks its form's CSRF token first. Signed in once, else refused.
   */
  confirmSignIn(request: {
    handle: string;
    binder: string;
    confirm: boolean;
    origin: RequestOrigin;
  }): Promise<SignInOutcome>;
  /**
   * ConfirmLink: as getLinkOutcome, plus InvalidCsrfTokenError when `csrfToken` is not the
   * session's. Answers the status after the decision.
   */
  confirmLink(request: {
    handle: string;
    binder: string;
    sessionToken: string;
    csrfToken: string;
    confirm: boolean;
  }): Promise<LinkOutcome>;
  /**
   * RedeemResponseCode (docs/wallet.md #18): the flow a same-device response code belongs to,
   * once, with its binder; NotFoundError otherwise.
   */
  redeemResponseCode(request: { responseCode: string; binder: string }): Promise<{
    handle: string;
    purpose: 'sign_in' | 'link';
  }>;
}

/** What a verified presentation disclosed, shown for the user to confirm (docs/wallet.md #16). */
export interface PresentedCredential {
  issuer: string;
  email?: string;
}

/** interface.md 2.6 wallet-link record (the same for a sign-in), plus the browser-binder cookie value. */
export interface WalletFlow {
  handle: string;
  /** Opaque: shown as a QR code, a deep link and text. */
  invocationUri: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  binder: string;
}

export type SignInOutcome =
  | { kind: 'pending' }
  | { kind: 'presented'; presented: PresentedCredential }
  | { kind: 'signed_in'; sessionToken: string }
  /** The one uniform refusal, whatever its cause (docs/wallet.md). */
  | { kind: 'refused' };

/** interface.md 3 wallet-link poll statuses. */
export type LinkStatus =
  'pending' | 'presented' | 'linked' | 'conflict' | 'expired' | 'rejected' | 'cancelled';

export interface LinkOutcome {
  status: LinkStatus;
  /** wallet-bridge's fixed sentence for the status. */
  message?: string;
  /** With `presented`. */
  presented?: PresentedCredential;
}
