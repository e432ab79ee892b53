import type { Route } from '../route.js';
import { submitDelete, submitName, submitSessionEnd, submitSignOut } from './account-actions.js';
import { ACCOUNT_PAGE_PATHS } from './account-links.js';
import { showAccountPage } from './account-page.js';
import { showRegisterPage, submitRegister } from './register-page.js';

/** interface.md 4.10 pages: sign-up and the account page with its forms. */
export const ACCOUNT_ROUTES: readonly Route[] = [
  { path: ACCOUNT_PAGE_PATHS.register, methods: { GET: showRegisterPage, POST: submitRegister } },
  { path: ACCOUNT_PAGE_PATHS.account, methods: { GET: showAccountPage } },
  { path: ACCOUNT_PAGE_PATHS.accountName, methods: { POST: submitName } },
  { path: ACCOUNT_PAGE_PATHS.accountSessionEnd, methods: { POST: submitSessionEnd } },
  { path: ACCOUNT_PAGE_PATHS.accountSignOut, methods: { POST: submitSignOut } },
  { path: ACCOUNT_PAGE_PATHS.accountDelete, methods: { POST: submitDelete } },
];
