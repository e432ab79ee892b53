import { WALLET_LINK_SIGN_IN_MAX_AGE_SECONDS } from '@authz/shared/protocol';
import type { BrowserSession } from '../browser-session.js';

/**
 * docs/strong-authentication.md #16: adding or removing a passkey needs a sign-in within the last
 * 5 minutes, the rule of linking a wallet or an upstream account (docs/federation.md #12).
 */
export function hasRecentSignIn(session: Pick<BrowserSession, 'authTime'>): boolean {
  return session.authTime * 1000 >= Date.now() - WALLET_LINK_SIGN_IN_MAX_AGE_SECONDS * 1000;
}
