import { HOSTED_PAGE_PATHS } from '@authz/shared/protocol';
import type { Route } from '../route.js';
import { showAccountEmailPage, submitAccountEmail } from './account-email-page.js';
import { showAccountPasswordPage, submitAccountPassword } from './account-password-page.js';
import { showForgotPasswordPage, submitForgotPassword } from './forgot-password-page.js';
import { showResetPasswordPage, submitResetPassword } from './reset-password-page.js';
import { showVerifyEmailPage, submitVerifyEmail } from './verify-email-page.js';

/** The account-recovery pages (interface.md 4.10, docs/hosted-pages.md #25). */
export const RECOVERY_ROUTES: readonly Route[] = [
  {
    path: HOSTED_PAGE_PATHS.forgotPassword,
    methods: { GET: showForgotPasswordPage, POST: submitForgotPassword },
  },
  {
    path: HOSTED_PAGE_PATHS.resetPassword,
    methods: { GET: showResetPasswordPage, POST: submitResetPassword },
  },
  { path: HOSTED_PAGE_PATHS.verifyEmail, methods: { GET: showVerifyEmailPage, POST: submitVerifyEmail } },
  {
    path: HOSTED_PAGE_PATHS.accountPassword,
    methods: { GET: showAccountPasswordPage, POST: submitAccountPassword },
  },
  { path: HOSTED_PAGE_PATHS.accountEmail, methods: { GET: showAccountEmailPage, POST: submitAccountEmail } },
];
