import { PresentationTransportService, WalletFlowService } from '@authz/proto/walletbridge/v1/walletbridge';
import { GrpcChannel } from '@authz/shared/grpc';
import type { FastifyInstance } from 'fastify';
import { formsOnly } from '../oauth/form-body.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import { sendBareNotFound } from './bare-not-found.js';
import { linkRoutes } from './link-routes.js';
import { transportRoutes } from './transport-routes.js';
import { walletFlowRateLimit } from './wallet-flow-budget.js';

export interface WalletRoutesOptions {
  /** WALLET_BRIDGE_GRPC_URL. */
  address: string;
  /** WALLET_FEDERATION_ENABLED. */
  enabled: boolean;
  /** WALLET_FLOW_RATE_LIMIT per WALLET_FLOW_RATE_WINDOW, per IP. */
  flowBudget: RateLimitBudget;
}

/**
 * interface.md 1 item 7, 4.2, 4.9: the wallet federation routes. While the flag is off every one of
 * them is the bare 404 of an unknown route, answered in onRequest, before the body is parsed
 * or any cookie read (docs/decisions.md #25); with it on, wallet-bridge answers 404 itself while it
 * has no usable verifier profile.
 */
export async function walletRoutes(
  app: FastifyInstance,
  { address, enabled, flowBudget }: WalletRoutesOptions,
) {
  if (!enabled) {
    app.addHook('onRequest', async (_request, reply) => sendBareNotFound(reply));
  }
  const channel = new GrpcChannel(address);
  app.addHook('onClose', async () => channel.close());
  await app.register(formsOnly(transportRoutes), {
    transport: channel.service(PresentationTransportService),
  });
  await app.register(linkRoutes, {
    flows: channel.service(WalletFlowService),
    startBudget: walletFlowRateLimit(flowBudget),
  });
}
