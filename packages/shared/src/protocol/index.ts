// Protocol constants that more than one service states: the clients service verifies client
// assertions, the oauth service advertises what it verifies (RFC 8414 section 2).

/**
 * RFC 9449 section 5.1 dpop_signing_alg_values_supported: what a DPoP proof may be signed with,
 * asymmetric only. oauth verifies proofs; the gateway names them in DPoP challenges (section 7.1).
 * Ed25519 is RFC 9864's fully-specified name of EdDSA over Ed25519, which current clients
 * (oauth4webapi) put in their proofs (docs/par-and-dpop.md #7).
 */
export const DPOP_SIGNING_ALGORITHMS: readonly string[] = ['EdDSA', 'Ed25519', 'ES256', 'RS256', 'PS256'];

/** RFC 7523 section 2.2: the client_assertion_type of private_key_jwt. */
export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/**
 * Signature algorithms accepted on client assertions: asymmetric only, since private_key_jwt
 * clients register public keys (RFC 7523 section 3; `none` and HMAC are never accepted).
 * Discovery advertises this list as token_endpoint_auth_signing_alg_values_supported.
 */
export const CLIENT_ASSERTION_SIGNING_ALGORITHMS: readonly string[] = [
  'EdDSA',
  'ES256',
  'ES384',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
];

/**
 * The browser session cookie of the hosted pages and the consents API (interface.md 5). The `__Host-`
 * prefix (RFC 6265bis section 4.1.3.2) makes browsers insist on Secure, Path=/ and no Domain.
 */
export const SESSION_COOKIE = '__Host-service_session';

/** Hosted pages under the issuer (interface.md 4.5): where oauth sends the browser for each step. */
export const HOSTED_PAGE_PATHS = {
  login: '/ui/login',
  consent: '/ui/consent',
  resume: '/ui/resume',
  /** Wallet sign-in and linking; 404 while wallet federation is off (docs/decisions.md #25). */
  walletLogin: '/ui/wallet-login',
  walletLink: '/ui/wallet-link',
  /** Where a same-device wallet sends the browser back, with the response code (docs/wallet.md #18). */
  walletReturn: '/ui/wallet-return',
  /** interface.md 4.3: the logout confirmation and the page after a logout. */
  logout: '/ui/logout',
  signedOut: '/ui/signed-out',
  /** Account recovery (interface.md 4.10). */
  forgotPassword: '/ui/forgot-password',
  resetPassword: '/ui/reset-password',
  verifyEmail: '/ui/verify-email',
  accountPassword: '/ui/account/password',
  accountEmail: '/ui/account/email',
} as const;

/** docs/wallet.md #19: starting a wallet link needs a sign-in at most this many seconds old. */
export const WALLET_LINK_SIGN_IN_MAX_AGE_SECONDS = 300;
export { holdsUnstorableString, isStorableText } from './storable-text.js';
export { DEVICE_CODE_GRANT_TYPE, DEVICE_PAGE_PATHS } from './device-pages.js';
export { ACR_MFA, ACR_PASSWORD, ACR_VALUES_SUPPORTED, acrOf, satisfiesAcr } from './acr.js';
