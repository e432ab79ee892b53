import {
  ConflictError,
  InvalidCodeError,
  InvalidCredentialsError,
  RateLimitedError,
  ValidationError,
} from '@authz/shared/errors';
import { html } from '../../html/html.js';
import { checkedSession, isPage } from '../account/account-actions.js';
import type { BrowserSession } from '../browser-session.js';
import type { PageRequest } from '../shared/page-request.js';
import { documentPage, redirectPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import { render as renderQrCode } from '../wallet/wallet-qr-code.js';
import { tooManyAttemptsPage } from '../status/status-pages.js';
import { codeField } from './code-field.js';

type Deps = Pick<Registry, 'identity' | 'links' | 'secondFactors' | 'strongAuthLinks' | 'accountLinks'>;

const WRONG_PASSWORD = 'The password is incorrect. Nothing was changed.';
const WRONG_ENROLMENT_CODE =
  'That code is not valid. Check the time on your phone and enter the current code.';

/**
 * POST /ui/account/totp (docs/strong-authentication.md #2): the password again, then the new
 * secret as a QR code of its otpauth:// URI (drawn server-side, not cached: it is a secret) and
 * as text, with the form that confirms it by one code.
 */
export async function submitTotpBegin(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await checkedSession(deps, request);
  if (isPage(session)) return session;
  let enrolment: { secret: string; otpauthUri: string };
  try {
    enrolment = await deps.secondFactors.beginTotp({
      userId: session.userId,
      password: request.form.get('password') ?? '',
      origin: request.origin,
    });
  } catch (error) {
    if (error instanceof InvalidCredentialsError || error instanceof ValidationError) {
      return messagePage(deps, 401, WRONG_PASSWORD);
    }
    if (error instanceof ConflictError) return redirectPage(303, deps.accountLinks.account());
    if (error instanceof RateLimitedError) return tooManyAttemptsPage(deps);
    throw error;
  }
  const qr = await renderQrCode(enrolment.otpauthUri);
  return confirmPage(deps, session, 200, {
    intro: html`<p>Scan this code with your authenticator app, then enter the 6-digit code it shows.</p>
      <p>
        <img
          src="${qr.dataUri}"
          width="${qr.size}"
          height="${qr.size}"
          alt="QR code of your authenticator-app secret"
        />
      </p>
      <p>Or type this key into the app: <code class="secret">${spaced(enrolment.secret)}</code></p>`,
  });
}

/** POST /ui/account/totp/confirm: one valid code turns it on; the recovery codes are shown once. */
export async function submitTotpConfirm(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await checkedSession(deps, request);
  if (isPage(session)) return session;
  let recoveryCodes: string[];
  try {
    recoveryCodes = await deps.secondFactors.confirmTotp({
      userId: session.userId,
      code: request.form.get('code') ?? '',
      origin: request.origin,
    });
  } catch (error) {
    if (error instanceof InvalidCodeError || error instanceof ValidationError) {
      return confirmPage(deps, session, 400, { error: WRONG_ENROLMENT_CODE });
    }
    throw error;
  }
  return documentPage(deps.links, 200, {
    title: 'Recovery codes',
    heading: 'Authenticator app added',
    content: html`<p>
        Keep these recovery codes somewhere safe. Each signs you in once if you lose your phone. They are
        shown only now.
      </p>
      <ul class="recovery-codes">
        ${recoveryCodes.map((code) => html`<li><code>${code}</code></li>`)}
      </ul>
      <p><a href="${deps.accountLinks.account()}">Back to your account</a></p>`,
  });
}

/** POST /ui/account/totp/remove (docs/strong-authentication.md #9): the password, then it is gone. */
export async function submitTotpRemove(deps: Deps, request: PageRequest): Promise<PageResult> {
  const session = await checkedSession(deps, request);
  if (isPage(session)) return session;
  try {
    await deps.secondFactors.removeTotp({
      userId: session.userId,
      password: request.form.get('password') ?? '',
      origin: request.origin,
    });
  } catch (error) {
    if (error instanceof InvalidCredentialsError || error instanceof ValidationError) {
      return messagePage(deps, 401, WRONG_PASSWORD);
    }
    throw error;
  }
  return redirectPage(303, deps.accountLinks.account());
}

function confirmPage(
  deps: Deps,
  session: BrowserSession,
  status: number,
  { intro, error }: { intro?: ReturnType<typeof html>; error?: string },
): PageResult {
  return documentPage(deps.links, status, {
    title: 'Set up an authenticator app',
    content: html`${intro}
      <form method="post" action="${deps.strongAuthLinks.totpConfirm()}">
        <input type="hidden" name="csrf_token" value="${session.csrfToken}" />
        ${codeField(error)}
        <div class="actions"><button type="submit" class="primary">Turn on</button></div>
      </form>
      <p><a href="${deps.accountLinks.account()}">Cancel</a></p>`,
  });
}

function messagePage(deps: Deps, status: number, message: string): PageResult {
  return documentPage(deps.links, status, {
    title: 'Authenticator app',
    content: html`<p class="alert" role="alert">${message}</p>
      <p><a href="${deps.accountLinks.account()}">Back to your account</a></p>`,
  });
}

/** Groups of four, as authenticator apps show keys; the app ignores the spaces. */
function spaced(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}
