import { HOSTED_PAGE_PATHS } from '@authz/shared/protocol';

/**
 * Links between the wallet pages, paths under the issuer's own path like every hosted link
 * (links.ts). `returnTo` is the pending authorization a sign-in continues, carried in the
 * query as the sign-in page carries it.
 */
export interface WalletLinks {
  /** GET: the start form; POST: starts the sign-in. */
  signIn(returnTo?: string): string;
  /** The waiting screen of a sign-in. */
  signInWaiting(handle: string, returnTo?: string): string;
  /** The poll that completes a sign-in. */
  signInStatus(handle: string, returnTo?: string): string;
  /** GET: the confirmation screen; POST: starts the link. */
  link(): string;
  /** The waiting/outcome screen of a link. */
  linkOutcome(handle: string): string;
}

export function walletLinks(issuer: string): WalletLinks {
  const base = new URL(issuer).pathname.replace(/\/+$/, '');
  const signIn = `${base}${HOSTED_PAGE_PATHS.walletLogin}`;
  const query = (returnTo: string | undefined) =>
    returnTo === undefined ? '' : `?${new URLSearchParams({ handle: returnTo }).toString()}`;
  const flow = (handle: string) => `${signIn}/${encodeURIComponent(handle)}`;
  return {
    signIn: (returnTo) => `${signIn}${query(returnTo)}`,
    signInWaiting: (handle, returnTo) => `${flow(handle)}${query(returnTo)}`,
    signInStatus: (handle, returnTo) => `${flow(handle)}/status${query(returnTo)}`,
    link: () => `${base}${HOSTED_PAGE_PATHS.walletLink}`,
    linkOutcome: (handle) => `${base}${HOSTED_PAGE_PATHS.walletLink}/${encodeURIComponent(handle)}`,
  };
}
