import type { WalletFlowService } from '@authz/proto/walletbridge/v1/walletbridge';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { confirmLink, getLinkOutcome } from '../flows/link-outcome.js';
import { redeemResponseCode } from '../flows/redeem-response-code.js';
import { confirmSignIn, getSignInOutcome } from '../flows/sign-in-outcome.js';
import { startLink, startSignIn } from '../flows/start-flow.js';
import type { Registry } from '../registry.js';

/** The browser-facing flows (interface.md 4.2, 4.5): thin translations (docs/conventions.md #2). */
export function flowServiceImplementation(
  registry: Registry,
): ServiceImplementation<typeof WalletFlowService> {
  return {
    async startSignIn() {
      return { flow: await startSignIn(registry) };
    },
    async startLink(request) {
      return { flow: await startLink(registry, request) };
    },
    async getSignInOutcome(request) {
      return getSignInOutcome(registry, request);
    },
    async getLinkOutcome(request) {
      return getLinkOutcome(registry, request);
    },
    async confirmSignIn(request) {
      return { outcome: await confirmSignIn(registry, request) };
    },
    async confirmLink(request) {
      return { outcome: await confirmLink(registry, request) };
    },
    async redeemResponseCode(request) {
      return redeemResponseCode(registry, request);
    },
  };
}
