import type { Route } from '../route.js';
import { submitTotpBegin, submitTotpConfirm, submitTotpRemove } from './authenticator-app-actions.js';
import { submitSecondStep } from './second-step-page.js';
import { submitStepUp } from './step-up-page.js';
import { STRONG_AUTH_PAGE_PATHS } from './strong-auth-links.js';

/** docs/interface.md 4.11 pages: the second step of a sign-in, step-up, and the authenticator app. */
export const STRONG_AUTH_ROUTES: readonly Route[] = [
  { path: STRONG_AUTH_PAGE_PATHS.secondStep, methods: { POST: submitSecondStep } },
  { path: STRONG_AUTH_PAGE_PATHS.stepUp, methods: { POST: submitStepUp } },
  { path: STRONG_AUTH_PAGE_PATHS.totpBegin, methods: { POST: submitTotpBegin } },
  { path: STRONG_AUTH_PAGE_PATHS.totpConfirm, methods: { POST: submitTotpConfirm } },
  { path: STRONG_AUTH_PAGE_PATHS.totpRemove, methods: { POST: submitTotpRemove } },
];
