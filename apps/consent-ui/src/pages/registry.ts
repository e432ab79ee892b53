import type { StyleSheet } from '../html/style-sheet.js';
import type { AuthorizationPort } from './authorization/authorization-port.js';
import type { IdentityPort } from './sign-in/identity-port.js';
import type { Links } from './shared/links.js';
import type { WalletLinks } from './wallet/wallet-links.js';
import type { WalletPort } from './wallet/wallet-port.js';
import type { QrCodes } from './wallet/wallet-qr-code.js';

/** Everything a page may need; each page picks the few it uses (docs/conventions.md #6). */
export interface Registry {
  identity: IdentityPort;
  authorization: AuthorizationPort;
  links: Links;
  styleSheet: StyleSheet;
  /** Derived from SECRET_HASH_KEY for the sign-in form alone (cookies/login-csrf.ts). */
  loginCsrfKey: Buffer;
  /** wallet-bridge's browser flows (interface.md 4.5 wallet pages). */
  wallet: WalletPort;
  walletLinks: WalletLinks;
  qrCodes: QrCodes;
}
