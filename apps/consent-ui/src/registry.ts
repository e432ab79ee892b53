import { AccountRecoveryService } from '@authz/proto/identity/v1/account_recovery';
import { AccountService } from '@authz/proto/identity/v1/accounts';
import { FederationService } from '@authz/proto/identity/v1/federation';
import { IdentityService } from '@authz/proto/identity/v1/identity';
import { SecondFactorService } from '@authz/proto/identity/v1/second_factors';
import { AccountLifecycleService } from '@authz/proto/oauth/v1/accounts';
import { AuthorizationService } from '@authz/proto/oauth/v1/oauth';
import { UserTokensService } from '@authz/proto/oauth/v1/user_tokens';
import { DeviceAuthorizationService } from '@authz/proto/oauth/v1/device_authorization';
import { WalletFlowService } from '@authz/proto/walletbridge/v1/walletbridge';
import type { GrpcChannel } from '@authz/shared/grpc';
import type { ConsentUiEnv } from './config/env.js';
import { deriveLoginCsrfKey } from './cookies/login-csrf.js';
import type { StyleSheet } from './html/style-sheet.js';
import { accountLinks, type AccountLinks } from './pages/account/account-links.js';
import type { AccountPort } from './pages/account/account-port.js';
import type { AuthorizationPort } from './pages/authorization/authorization-port.js';
import type { IdentityPort } from './pages/sign-in/identity-port.js';
import { hostedLinks, type Links } from './pages/shared/links.js';
import { walletLinks, type WalletLinks } from './pages/wallet/wallet-links.js';
import type { WalletPort } from './pages/wallet/wallet-port.js';
import { qrCodeRenderer, type QrCodes } from './pages/wallet/wallet-qr-code.js';
import { federationLinks, type FederationLinks } from './pages/federation/federation-links.js';
import type { FederationPort } from './pages/federation/federation-port.js';
import { federationOverGrpc } from './rpc/federation-client.js';
import { accountOverGrpc } from './rpc/account-client.js';
import { identityOverGrpc } from './rpc/identity-client.js';
import { accountRecoveryOverGrpc } from './rpc/account-recovery-client.js';
import type { AccountRecoveryPort } from './pages/account-recovery/recovery-port.js';
import { recoveryLinks, type RecoveryLinks } from './pages/account-recovery/recovery-links.js';
import { authorizationOverGrpc } from './rpc/oauth-client.js';
import { walletOverGrpc } from './rpc/wallet-client.js';
import { deviceOverGrpc } from './rpc/device-client.js';
import { deviceLinks, type DeviceLinks } from './pages/device/device-links.js';
import type { DevicePort } from './pages/device/device-port.js';
import { secondFactorsOverGrpc } from './rpc/second-factor-client.js';
import type { SecondFactorPort } from './pages/strong-auth/second-factor-port.js';
import { strongAuthLinks, type StrongAuthLinks } from './pages/strong-auth/strong-auth-links.js';

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
  /** Password reset and change, email change (interface.md 4.10). */
  recovery: AccountRecoveryPort;
  recoveryLinks: RecoveryLinks;
  /** Sign-up, sessions, name and deletion (interface.md 4.10). */
  accounts: AccountPort;
  accountLinks: AccountLinks;
  /** The device authorization grant's pages (interface.md 4.13). */
  device: DevicePort;
  deviceLinks: DeviceLinks;
  /** Upstream OpenID Providers (interface.md 4.14). */
  federation: FederationPort;
  federationLinks: FederationLinks;
  /** Second steps, step-up and the authenticator app (docs/strong-authentication.md). */
  secondFactors: SecondFactorPort;
  strongAuthLinks: StrongAuthLinks;
}

/** The registry over the channels app.ts opened (and closes) and the style sheet it loaded. */
export function createRegistry(
  env: ConsentUiEnv,
  parts: {
    styleSheet: StyleSheet;
    identityChannel: GrpcChannel;
    oauthChannel: GrpcChannel;
    walletChannel: GrpcChannel;
  },
): Registry {
  return {
    identity: identityOverGrpc(parts.identityChannel.service(IdentityService)),
    authorization: authorizationOverGrpc(parts.oauthChannel.service(AuthorizationService)),
    links: hostedLinks(env.issuer, parts.styleSheet.version),
    styleSheet: parts.styleSheet,
    loginCsrfKey: deriveLoginCsrfKey(env.secretHashKey),
    wallet: walletOverGrpc(parts.walletChannel.service(WalletFlowService)),
    walletLinks: walletLinks(env.issuer),
    qrCodes: qrCodeRenderer(),
    recovery: accountRecoveryOverGrpc({
      identity: parts.identityChannel.service(IdentityService),
      recovery: parts.identityChannel.service(AccountRecoveryService),
      userTokens: parts.oauthChannel.service(UserTokensService),
    }),
    recoveryLinks: recoveryLinks(env.issuer),
    accounts: accountOverGrpc({
      identity: parts.identityChannel.service(IdentityService),
      accounts: parts.identityChannel.service(AccountService),
      lifecycle: parts.oauthChannel.service(AccountLifecycleService),
    }),
    accountLinks: accountLinks(env.issuer),
    device: deviceOverGrpc(parts.oauthChannel.service(DeviceAuthorizationService)),
    deviceLinks: deviceLinks(env.issuer),
    federation: federationOverGrpc(parts.identityChannel.service(FederationService)),
    federationLinks: federationLinks(env.issuer),
    secondFactors: secondFactorsOverGrpc({
      identity: parts.identityChannel.service(IdentityService),
      secondFactors: parts.identityChannel.service(SecondFactorService),
    }),
    strongAuthLinks: strongAuthLinks(env.issuer),
  };
}
