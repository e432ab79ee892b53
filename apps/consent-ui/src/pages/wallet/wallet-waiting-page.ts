import { html } from '../../html/html.js';
import { documentPage, type PageResult } from '../shared/page-result.js';
import type { Registry } from '../../registry.js';
import type { QrCodeImage } from './wallet-qr-code.js';

/**
 * How often a waiting screen reloads. Long enough that a screen reader can read the page
 * between reloads, short enough that the browser goes on soon after the wallet has answered.
 */
export const WAITING_REFRESH_SECONDS = 3;

/** Schemes a wallet is opened with: OpenID4VP 1.0's own, or a wallet's https universal link. */
const DEEP_LINK_SCHEMES = new Set(['openid4vp:', 'https:']);

export interface WaitingView {
  title: string;
  /** What the wallet is asked for, in one sentence. */
  purpose: string;
  /** Absent when the browser no longer holds it: the page then only waits. */
  invocationUri: string | undefined;
  /** Where the page reloads to: the poll of the flow. */
  pollUrl: string;
}

/**
 * The screen of a started wallet flow (interface.md 4.5): the invocation URI as a QR code for a wallet
 * on another device, as a link for one on this device, and as text to copy; the page reloads
 * itself to `pollUrl` (no script: a meta refresh, which the CSP does not restrict) and offers
 * the same as a link.
 */
export async function walletWaitingPage(
  { links, qrCodes }: Pick<Registry, 'links' | 'qrCodes'>,
  { title, purpose, invocationUri, pollUrl }: WaitingView,
  setCookies: string[] = [],
): Promise<PageResult> {
  const invocation =
    invocationUri === undefined
      ? undefined
      : invocationView(invocationUri, await qrCodes.image(invocationUri));
  return documentPage(
    links,
    200,
    {
      title,
      refresh: { seconds: WAITING_REFRESH_SECONDS, url: pollUrl },
      content: html`<p>${purpose}</p>
        ${invocation}
        <p role="status">
          Waiting for your wallet to answer. This page checks again every ${WAITING_REFRESH_SECONDS} seconds.
        </p>
        <p><a href="${pollUrl}">Check now</a></p>`,
    },
    setCookies,
  );
}

function invocationView(invocationUri: string, qrCode: QrCodeImage) {
  return html`<p>Scan this code with your wallet app:</p>
    <p class="qr-code">
      <img
        src="${qrCode.dataUri}"
        width="${qrCode.size}"
        height="${qrCode.size}"
        alt="QR code of the wallet request, also given as a link below"
      />
    </p>
    ${
      opensWallet(invocationUri) &&
      html`<p>
        Or, with the wallet on this device:
        <a href="${invocationUri}" id="open-wallet">open your wallet app</a>.
      </p>`
    }
    <div class="field">
      <label for="invocation-uri">Wallet request, to copy into your wallet</label>
      <input id="invocation-uri" type="text" value="${invocationUri}" readonly autocomplete="off" />
    </div>`;
}

function opensWallet(uri: string): boolean {
  try {
    return DEEP_LINK_SCHEMES.has(new URL(uri).protocol);
  } catch {
    return false;
  }
}
