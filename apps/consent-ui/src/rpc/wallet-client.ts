import {
  LinkStatus,
  SignInStatus,
  type FlowStarted,
  type WalletFlowService,
} from '@authz/proto/walletbridge/v1/walletbridge';
import { InternalError, NotFoundError } from '@authz/shared/errors';
import type { ServiceClient } from '@authz/shared/grpc';
import type { LinkOutcome, WalletFlow, WalletPort } from '../pages/wallet/wallet-port.js';

/** The availability probe is asked on every wallet page: it must not hold one up for long. */
const PROBE_TIMEOUT_MS = 2000;

const LINK_STATUSES: Partial<Record<LinkStatus, LinkOutcome['status']>> = {
  [LinkStatus.PENDING]: 'pending',
  [LinkStatus.LINKED]: 'linked',
  [LinkStatus.CONFLICT]: 'conflict',
  [LinkStatus.EXPIRED]: 'expired',
  [LinkStatus.REJECTED]: 'rejected',
};

/** WalletPort over wallet-bridge's WalletFlowService; its AppErrors arrive rebuilt. */
export function walletOverGrpc(client: ServiceClient<typeof WalletFlowService>): WalletPort {
  return {
    async isAvailable({ timeoutMs = PROBE_TIMEOUT_MS } = {}) {
      // walletbridge.proto: every RPC answers NotFoundError first while the feature is off, so
      // reading no flow at all tells the two states apart without starting or reading one.
      try {
        await client.getSignInOutcome({ handle: '', binder: '' }, { timeoutMs });
        return true;
      } catch (error) {
        if (error instanceof NotFoundError) return false;
        throw error;
      }
    },
    async startSignIn(origin) {
      return walletFlow((await client.startSignIn({ origin })).flow);
    },
    async startLink({ sessionToken, csrfToken, origin }) {
      return walletFlow((await client.startLink({ sessionToken, csrfToken, origin })).flow);
    },
    async getSignInOutcome({ handle, binder, origin }) {
      const { status, signedIn } = await client.getSignInOutcome({ handle, binder, origin });
      if (status === SignInStatus.PENDING) return { kind: 'pending' };
      if (status === SignInStatus.SIGNED_IN && signedIn?.sessionToken) {
        return { kind: 'signed_in', sessionToken: signedIn.sessionToken };
      }
      return { kind: 'refused' };
    },
    async getLinkOutcome({ handle, binder, sessionToken }) {
      const { status, message } = await client.getLinkOutcome({ handle, binder, sessionToken });
      const known = LINK_STATUSES[status];
      if (!known) throw new InternalError({ detail: `wallet-bridge answered link status ${status}` });
      return message === undefined ? { status: known } : { status: known, message };
    },
  };
}

function walletFlow(flow: FlowStarted | undefined): WalletFlow {
  if (!flow?.handle || !flow.invocationUri || !flow.binder) {
    throw new InternalError({ detail: 'wallet-bridge answered an incomplete flow' });
  }
  return {
    handle: flow.handle,
    invocationUri: flow.invocationUri,
    expiresAt: Number(flow.expiresAt),
    binder: flow.binder,
  };
}
