import { HostedPagesService } from '@authz/proto/consentui/v1/consentui';
import { IdentityService } from '@authz/proto/identity/v1/identity';
import { AuthorizationService } from '@authz/proto/oauth/v1/oauth';
import { WalletFlowService } from '@authz/proto/walletbridge/v1/walletbridge';
import { GrpcChannel } from '@authz/shared/grpc';
import type { Logger } from '@authz/shared/logger';
import { createServiceApp, type ServiceApp } from '@authz/shared/service';
import type { ConsentUiEnv } from './config/env.js';
import { deriveLoginCsrfKey } from './cookies/login-csrf.js';
import { loadStyleSheet } from './html/style-sheet.js';
import { hostedLinks } from './pages/shared/links.js';
import type { Registry } from './pages/registry.js';
import { walletLinks } from './pages/wallet/wallet-links.js';
import { qrCodeRenderer } from './pages/wallet/wallet-qr-code.js';
import { hostedPagesServiceImplementation } from './rpc/hosted-pages-service.js';
import { identityOverGrpc } from './rpc/identity-client.js';
import { authorizationOverGrpc } from './rpc/oauth-client.js';
import { walletOverGrpc } from './rpc/wallet-client.js';

export interface ConsentUiDeps {
  env: ConsentUiEnv;
  logger: Logger;
}

/** Builds the consent-ui service: server-rendered hosted pages (login, consent, resume, wallet screens); stateless. */
export async function buildConsentUiApp({ env, logger }: ConsentUiDeps): Promise<ServiceApp> {
  const styleSheet = loadStyleSheet();
  const app = await createServiceApp('consent-ui', logger, {});
  const identityChannel = new GrpcChannel(env.services.identity);
  const oauthChannel = new GrpcChannel(env.services.oauth);
  const walletChannel = new GrpcChannel(env.services['wallet-bridge']);
  const registry: Registry = {
    identity: identityOverGrpc(identityChannel.service(IdentityService)),
    authorization: authorizationOverGrpc(oauthChannel.service(AuthorizationService)),
    links: hostedLinks(env.issuer, styleSheet.version),
    styleSheet,
    loginCsrfKey: deriveLoginCsrfKey(env.secretHashKey),
    wallet: walletOverGrpc(walletChannel.service(WalletFlowService)),
    walletLinks: walletLinks(env.issuer),
    qrCodes: qrCodeRenderer(),
  };
  app.server.addService(HostedPagesService, hostedPagesServiceImplementation(registry));
  return {
    server: app.server,
    metrics: app.metrics,
    close: async () => {
      identityChannel.close();
      oauthChannel.close();
      walletChannel.close();
      await app.close();
    },
  };
}

export { loadConsentUiEnv, type ConsentUiEnv } from './config/env.js';
