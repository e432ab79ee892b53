import type { WalletFlow } from './wallet-port.js';

/**
 * The browser-binder cookie of a wallet flow (docs/wallet.md): the value wallet-bridge returns
 * when a flow starts, required to read its outcome. The same name as the gateway's
 * /auth/link/wallet routes use, so either way of starting a flow binds the browser alike.
 */
export const BINDER_COOKIE = '__Host-service_wallet_binder';

/**
 * The flow's invocation URI, so the waiting screen keeps showing the QR code across its own
 * reloads: WalletFlowService hands it out only when the flow starts. It also names the flow
 * (its page id, docs/wallet.md #17) and, for a sign-in, the pending authorization it continues,
 * so a same-device return (docs/wallet.md #18) finds its way back. Host-only and HttpOnly, so
 * only these pages ever set it (docs/hosted-pages.md "Wallet pages").
 */
export const INVOCATION_COOKIE = '__Host-service_wallet_invocation';

/** RFC 6265 section 4.1.1 cookie-octet. */
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

/** Like every hosted-page cookie: `__Host-`, Path=/, Secure (docs/decisions.md #18), HttpOnly, Lax. */
function setCookie(name: string, value: string, maxAgeSeconds: number): string {
  if (!COOKIE_VALUE.test(value)) throw new Error(`cookie ${name}: value is not a cookie-octet string`);
  return `${name}=${value}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}`;
}

interface HeldInvocation {
  /** The flow's page id. */
  flow: string;
  uri: string;
  /** The pending authorization a sign-in continues. */
  returnTo?: string;
}

/** Both cookies of a flow that just started; they last as long as the flow. */
export function walletFlowCookies(flow: WalletFlow, returnTo?: string, now = Date.now()): string[] {
  const maxAge = Math.max(0, Math.ceil((flow.expiresAt - now) / 1000));
  const held: HeldInvocation = {
    flow: flow.handle,
    uri: flow.invocationUri,
    ...(returnTo === undefined ? {} : { returnTo }),
  };
  return [
    setCookie(BINDER_COOKIE, flow.binder, maxAge),
    setCookie(INVOCATION_COOKIE, Buffer.from(JSON.stringify(held), 'utf8').toString('base64url'), maxAge),
  ];
}

/** RFC 6265 section 3.1: expired cookies remove the stored ones once the flow has served. */
export function clearedWalletFlowCookies(): string[] {
  return [setCookie(BINDER_COOKIE, '', 0), setCookie(INVOCATION_COOKIE, '', 0)];
}

/**
 * The invocation URI this browser was shown for flow `handle`, or undefined: the cookie may
 * be missing, or belong to a flow started later in another tab.
 */
export function invocationUriFor(
  cookies: Readonly<Record<string, string>>,
  handle: string,
): string | undefined {
  return heldInvocation(cookies, handle)?.uri;
}

/** The pending authorization the sign-in flow `handle` continues, as this browser started it. */
export function returnToFor(cookies: Readonly<Record<string, string>>, handle: string): string | undefined {
  return heldInvocation(cookies, handle)?.returnTo;
}

function heldInvocation(
  cookies: Readonly<Record<string, string>>,
  handle: string,
): HeldInvocation | undefined {
  const held = cookies[INVOCATION_COOKIE];
  if (!held) return undefined;
  try {
    const value = JSON.parse(Buffer.from(held, 'base64url').toString('utf8')) as Partial<HeldInvocation>;
    if (value.flow !== handle || typeof value.uri !== 'string') return undefined;
    return {
      flow: value.flow,
      uri: value.uri,
      ...(typeof value.returnTo === 'string' ? { returnTo: value.returnTo } : {}),
    };
  } catch {
    return undefined;
  }
}
