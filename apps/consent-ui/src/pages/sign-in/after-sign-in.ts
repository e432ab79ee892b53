import type { Registry } from '../../registry.js';

type Deps = Pick<Registry, 'links' | 'walletLinks' | 'recoveryLinks' | 'accountLinks'>;

type NextDeps = Pick<Deps, 'walletLinks' | 'recoveryLinks' | 'accountLinks'>;

/**
 * Where a plain sign-in (no pending authorization) may continue: our own pages, named, never a
 * URL taken from the request, so `next` cannot make an open redirector (RFC 9700 4.11).
 */
const NEXT_PAGES = {
  'wallet-link': (deps: NextDeps) => deps.walletLinks.link(),
  'account-password': (deps: NextDeps) => deps.recoveryLinks.accountPassword(),
  'account-email': (deps: NextDeps) => deps.recoveryLinks.accountEmail(),
  account: (deps: NextDeps) => deps.accountLinks.account(),
} as const;
export type NextPage = keyof typeof NEXT_PAGES;

export function nextPageOf(value: string | null | undefined): NextPage | undefined {
  return value !== null && value !== undefined && Object.hasOwn(NEXT_PAGES, value)
    ? (value as NextPage)
    : undefined;
}

/** Where the browser goes once signed in: the pending authorization, else the `next` page, else the sign-in page. */
export function afterSignIn(deps: Deps, handle: string | undefined, next: NextPage | undefined): string {
  if (handle !== undefined) return deps.links.resume(handle);
  return next === undefined ? deps.links.login() : NEXT_PAGES[next](deps);
}
