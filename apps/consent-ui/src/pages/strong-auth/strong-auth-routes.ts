import type { Route } from '../route.js';
import { submitTotpBegin, submitTotpConfirm, submitTotpRemove } from './authenticator-app-actions.js';
import {
  submitPasskeyRegister,
  submitPasskeyRegistrationOptions,
  submitPasskeyRemove,
  submitPasskeyRename,
} from './passkey-actions.js';
import { showPasskeyScript, showWebauthnScript } from './passkey-assets.js';
import { submitPasskeySignIn, submitPasskeySignInOptions } from './passkey-sign-in.js';
import { submitSecondStep } from './second-step-page.js';
import { submitPasskeyStepUp, submitPasskeyStepUpOptions } from './passkey-step-up.js';
import { submitStepUp } from './step-up-page.js';
import { STRONG_AUTH_PAGE_PATHS } from './strong-auth-links.js';

/** docs/interface.md 4.11 pages: the second step of a sign-in, step-up, and the authenticator app. */
export const STRONG_AUTH_ROUTES: readonly Route[] = [
  { path: STRONG_AUTH_PAGE_PATHS.secondStep, methods: { POST: submitSecondStep } },
  { path: STRONG_AUTH_PAGE_PATHS.stepUp, methods: { POST: submitStepUp } },
  { path: STRONG_AUTH_PAGE_PATHS.passkeyStepUpOptions, methods: { POST: submitPasskeyStepUpOptions } },
  { path: STRONG_AUTH_PAGE_PATHS.passkeyStepUp, methods: { POST: submitPasskeyStepUp } },
  { path: STRONG_AUTH_PAGE_PATHS.totpBegin, methods: { POST: submitTotpBegin } },
  { path: STRONG_AUTH_PAGE_PATHS.totpConfirm, methods: { POST: submitTotpConfirm } },
  { path: STRONG_AUTH_PAGE_PATHS.totpRemove, methods: { POST: submitTotpRemove } },
  { path: STRONG_AUTH_PAGE_PATHS.passkeySignInOptions, methods: { POST: submitPasskeySignInOptions } },
  { path: STRONG_AUTH_PAGE_PATHS.passkeySignIn, methods: { POST: submitPasskeySignIn } },
  {
    path: STRONG_AUTH_PAGE_PATHS.passkeyRegistrationOptions,
    methods: { POST: submitPasskeyRegistrationOptions },
  },
  { path: STRONG_AUTH_PAGE_PATHS.passkeyRegister, methods: { POST: submitPasskeyRegister } },
  { path: STRONG_AUTH_PAGE_PATHS.passkeyRename, methods: { POST: submitPasskeyRename } },
  { path: STRONG_AUTH_PAGE_PATHS.passkeyRemove, methods: { POST: submitPasskeyRemove } },
  { path: STRONG_AUTH_PAGE_PATHS.webauthnScript, methods: { GET: showWebauthnScript } },
  { path: STRONG_AUTH_PAGE_PATHS.passkeyScript, methods: { GET: showPasskeyScript } },
];
