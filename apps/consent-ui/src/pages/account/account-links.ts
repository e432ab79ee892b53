/** The account pages of interface.md 4.10, under the issuer's path like every hosted link (links.ts). */
export const ACCOUNT_PAGE_PATHS = {
  register: '/ui/register',
  account: '/ui/account',
  accountName: '/ui/account/name',
  accountSessionEnd: '/ui/account/sessions/end',
  accountSignOut: '/ui/account/sign-out',
  accountDelete: '/ui/account/delete',
  /** Built by the password and email pages of the same issue. */
  accountPassword: '/ui/account/password',
  accountEmail: '/ui/account/email',
} as const;

/** What the account page says after an action it redirected from (POST, then 303, then GET). */
export const ACCOUNT_NOTICES = {
  name: 'Your name was saved.',
  'session-ended': 'That session was signed out.',
  'upstream-linked': 'The sign-in method was linked to your account.',
  'upstream-unlinked': 'The sign-in method was removed from your account.',
} as const;
export type AccountNotice = keyof typeof ACCOUNT_NOTICES;

export interface AccountLinks {
  /** The sign-up page, continuing the pending authorization `handle` when given. */
  register(handle?: string): string;
  account(notice?: AccountNotice): string;
  accountName(): string;
  accountSessionEnd(): string;
  accountSignOut(): string;
  accountDelete(): string;
  accountPassword(): string;
  accountEmail(): string;
}

export function accountLinks(issuer: string): AccountLinks {
  const base = new URL(issuer).pathname.replace(/\/+$/, '');
  const path = (name: keyof typeof ACCOUNT_PAGE_PATHS) => `${base}${ACCOUNT_PAGE_PATHS[name]}`;
  return {
    register: (handle) =>
      handle === undefined ? path('register') : `${path('register')}?handle=${encodeURIComponent(handle)}`,
    account: (notice) => (notice === undefined ? path('account') : `${path('account')}?done=${notice}`),
    accountName: () => path('accountName'),
    accountSessionEnd: () => path('accountSessionEnd'),
    accountSignOut: () => path('accountSignOut'),
    accountDelete: () => path('accountDelete'),
    accountPassword: () => path('accountPassword'),
    accountEmail: () => path('accountEmail'),
  };
}
