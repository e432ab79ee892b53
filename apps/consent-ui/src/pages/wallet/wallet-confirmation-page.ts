import { html } from '../../html/html.js';
import { documentPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import type { RequestFields } from '../shared/page-request.js';
import type { PresentedCredential } from './wallet-port.js';

export interface ConfirmationView {
  purpose: 'sign_in' | 'link';
  presented: PresentedCredential;
  /** Where the decision is posted: the flow's own page. */
  action: string;
  /** The form's hidden fields: its CSRF token, and for a sign-in the pending authorization. */
  hidden: readonly (readonly [name: string, value: string])[];
}

/** The confirm button, per purpose; the cancel button reads the same for both. */
const CONFIRM_LABELS = {
  link: 'Link this credential',
  sign_in: 'Sign in with this credential',
} as const;

/**
 * docs/wallet.md #16 (OpenID4VP 1.0 security considerations on cross-device flows): the wallet's answer is
 * shown to the browser that started the flow, which confirms or cancels it. Whoever else saw
 * the QR code can answer it, but cannot press this button: the user sees whose credential came
 * back (its issuer and disclosed email) and refuses one that is not theirs. One POST form, the
 * decision in the button pressed; no refresh, so the page waits for the person.
 */
export function walletConfirmationPage(
  { links }: Pick<Registry, 'links'>,
  { purpose, presented, action, hidden }: ConfirmationView,
): PageResult {
  return documentPage(links, 200, {
    title: 'Confirm the wallet credential',
    heading: 'Is this your wallet credential?',
    content: html`<p>
        A wallet answered the request with the credential below. Go on only if it is yours and you scanned the
        code yourself: anyone who saw the code could have answered it.
      </p>
      <dl>
        <dt>Issued by</dt>
        <dd data-presented="issuer">${presented.issuer}</dd>
        <dt>Email address</dt>
        ${
          presented.email === undefined
            ? html`<dd data-presented="no-email">The credential disclosed no email address.</dd>`
            : html`<dd data-presented="email">${presented.email}</dd>`
        }
      </dl>
      <form method="post" action="${action}">
        ${hidden.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
        <div class="actions">
          <button type="submit" name="decision" value="confirm" class="primary">
            ${CONFIRM_LABELS[purpose]}
          </button>
          <button type="submit" name="decision" value="cancel">Cancel, this is not mine</button>
        </div>
      </form>`,
  });
}

/** The decision a confirmation form posted: true, false, or undefined for anything else. */
export function decisionOf(form: RequestFields): boolean | undefined {
  const decision = form.get('decision');
  return decision === 'confirm' ? true : decision === 'cancel' ? false : undefined;
}
