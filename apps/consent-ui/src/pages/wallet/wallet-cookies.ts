import type { WalletFlow } from './wallet-port.js';

/**
 * The browser-binder cookie of a wallet flow (docs/wallet.md): the value wallet-bridge returns
 * when a flow starts, required to read its outcome. The same name as the gateway's
 * /auth/link/wallet routes use, so either way of starting a flow binds the browser alike.
 */
export const BINDER_COOKIE = '__Host-service_wallet_binder';

/**
 * The flow's invocation URI, so the waiting screen keeps showing the QR code across its own
 * reloads: WalletFlowService hands it out only when the flow starts. Host-only and HttpOnly,
 * so only these pages ever set it (docs/hosted-pages.md "Wallet pages").
 */
export const INVOCATION_COOKIE = '__Host-service_wallet_invocation';

/** RFC 6265 section 4.1.1 cookie-octet. */
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

/** Like every hosted-page cookie: `__Host-`, Path=/, Secure (docs/decisions.md #18), HttpOnly, Lax. */
function setCookie(name: string, value: string, maxAgeSeconds: number): string {
  if (!COOKIE_VALUE.test(value)) throw new Error(`cookie ${name}: value is not a cookie-octet string`);
  return `${name}=${value}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}`;
}

/** Both cookies of a flow that just started; they last as long as the flow. */
export function walletFlowCookies(flow: WalletFlow, now = Date.now()): string[] {
  const maxAge = Math.max(0, Math.ceil((flow.expiresAt - now) / 1000));
  return [
    setCookie(BINDER_COOKIE, flow.binder, maxAge),
    setCookie(INVOCATION_COOKIE, Buffer.from(flow.invocationUri, 'utf8').toString('base64url'), maxAge),
  ];
}

/** RFC 6265 section 3.1: expired cookies remove the stored ones once the flow has served. */
export function clearedWalletFlowCookies(): string[] {
  return [setCookie(BINDER_COOKIE, '', 0), setCookie(INVOCATION_COOKIE, '', 0)];
}

/**
 * The invocation URI this browser was shown for flow `handle`, or undefined: the cookie may
 * be missing, or belong to a flow started later in another tab. The interface.md 4.9 request_uri ends
 * in the flow's handle, which is what ties the two together.
 */
export function invocationUriFor(
  cookies: Readonly<Record<string, string>>,
  handle: string,
): string | undefined {
  const held = cookies[INVOCATION_COOKIE];
  if (!held) return undefined;
  const uri = Buffer.from(held, 'base64url').toString('utf8');
  try {
    const requestUri = new URL(uri).searchParams.get('request_uri');
    return requestUri?.endsWith(`/${encodeURIComponent(handle)}`) ? uri : undefined;
  } catch {
    return undefined;
  }
}
