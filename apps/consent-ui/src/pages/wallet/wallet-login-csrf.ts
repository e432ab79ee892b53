import { isPreSessionCsrfTokenValid, preSessionCsrfToken } from '../../cookies/login-csrf.js';

/**
 * The wallet form's CSRF token: the sign-in form's construction (cookies/login-csrf.ts) under
 * its own label, so a token lifted from one form does not fit the other (docs/decisions.md #17,
 * docs/hosted-pages.md #18).
 */
export function walletLoginCsrfToken(key: Buffer, preSession: string, handle: string | undefined): string {
  return preSessionCsrfToken(key, 'wallet-login', preSession, handle);
}

export function isWalletLoginCsrfTokenValid(
  key: Buffer,
  preSession: string | undefined,
  handle: string | undefined,
  sent: string | undefined,
): boolean {
  return isPreSessionCsrfTokenValid(key, 'wallet-login', preSession, handle, sent);
}

/**
 * The sign-in confirmation form's token (docs/wallet.md #16): bound to the pre-session, which a
 * wallet sign-in requires to start, and to the flow, under its own label.
 */
export function walletConfirmCsrfToken(key: Buffer, preSession: string, flow: string): string {
  return preSessionCsrfToken(key, 'wallet-confirm', preSession, flow);
}

export function isWalletConfirmCsrfTokenValid(
  key: Buffer,
  preSession: string | undefined,
  flow: string,
  sent: string | undefined,
): boolean {
  return isPreSessionCsrfTokenValid(key, 'wallet-confirm', preSession, flow, sent);
}
