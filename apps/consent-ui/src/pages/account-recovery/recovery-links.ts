import { HOSTED_PAGE_PATHS } from '@authz/shared/protocol';

/** Links between the account-recovery pages, paths under the issuer's own path (links.ts). */
export interface RecoveryLinks {
  forgotPassword(): string;
  resetPassword(): string;
  verifyEmail(): string;
  accountPassword(): string;
  accountEmail(): string;
  /** The sign-in page, coming back to `next` (login-page.ts NEXT_PAGES). */
  signInThen(next: 'account-password' | 'account-email'): string;
}

export function recoveryLinks(issuer: string): RecoveryLinks {
  const base = new URL(issuer).pathname.replace(/\/+$/, '');
  return {
    forgotPassword: () => `${base}${HOSTED_PAGE_PATHS.forgotPassword}`,
    resetPassword: () => `${base}${HOSTED_PAGE_PATHS.resetPassword}`,
    verifyEmail: () => `${base}${HOSTED_PAGE_PATHS.verifyEmail}`,
    accountPassword: () => `${base}${HOSTED_PAGE_PATHS.accountPassword}`,
    accountEmail: () => `${base}${HOSTED_PAGE_PATHS.accountEmail}`,
    signInThen: (next) => `${base}${HOSTED_PAGE_PATHS.login}?next=${next}`,
  };
}
