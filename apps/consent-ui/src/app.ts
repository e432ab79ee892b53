import { HostedPagesService } from '@authz/proto/consentui/v1/consentui';
import { GrpcChannel } from '@authz/shared/grpc';
import type { Logger } from '@authz/shared/logger';
import { createServiceApp, type ServiceApp } from '@authz/shared/service';
import type { ConsentUiEnv } from './config/env.js';
import { loadStyleSheet } from './html/style-sheet.js';
import { createRegistry } from './registry.js';
import { hostedPagesServiceImplementation } from './rpc/hosted-pages-service.js';

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
  const registry = createRegistry(env, { styleSheet, identityChannel, oauthChannel, walletChannel });
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
