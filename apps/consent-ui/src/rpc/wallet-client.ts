import {
  LinkStatus,
  SignInStatus,
  type FlowStarted,
  type GetLinkOutcomeResponse,
  type GetSignInOutcomeResponse,
  type PresentedCredential as PresentedMessage,
  type WalletFlowService,
} from '@authz/proto/walletbridge/v1/walletbridge';
import { InternalError, NotFoundError } from '@authz/shared/errors';
import type { ServiceClient } from '@authz/shared/grpc';
import type {
  LinkOutcome,
  PresentedCredential,
  SignInOutcome,
  WalletFlow,
  WalletPort,
} from '../pages/wallet/wallet-port.js';

/** The availability probe is asked on every wallet page: it must not hold one up for long. */
const PROBE_TIMEOUT_MS = 2000;

const LINK_STATUSES: Partial<Record<LinkStatus, LinkOutcome['status']>> = {
  [LinkStatus.PENDING]: 'pending',
  [LinkStatus.LINKED]: 'linked',
  [LinkStatus.CONFLICT]: 'conflict',
  [LinkStatus.EXPIRED]: 'expired',
  [LinkStatus.REJECTED]: 'rejected',
  [LinkStatus.PRESENTED]: 'presented',
  [LinkStatus.CANCELLED]: 'cancelled',
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
      return signInOutcome(await client.getSignInOutcome({ handle, binder, origin }));
    },
    async getLinkOutcome({ handle, binder, sessionToken }) {
      return linkOutcome(await client.getLinkOutcome({ handle, binder, sessionToken }));
    },
    async confirmSignIn({ handle, binder, confirm, origin }) {
      return signInOutcome((await client.confirmSignIn({ handle, binder, confirm, origin })).outcome);
    },
    async confirmLink(request) {
      return linkOutcome((await client.confirmLink(request)).outcome);
    },
    async redeemResponseCode({ responseCode, binder }) {
      const { handle, purpose } = await client.redeemResponseCode({ responseCode, binder });
      if (!handle || (purpose !== 'sign_in' && purpose !== 'link')) {
        throw new InternalError({ detail: 'wallet-bridge answered an incomplete redemption' });
      }
      return { handle, purpose };
    },
  };
}

function signInOutcome(outcome: GetSignInOutcomeResponse | undefined): SignInOutcome {
  const { status, signedIn, presented } = outcome ?? {};
  if (status === SignInStatus.PENDING) return { kind: 'pending' };
  if (status === SignInStatus.PRESENTED && presented)
    return { kind: 'presented', presented: presentedOf(presented) };
  if (status === SignInStatus.SIGNED_IN && signedIn?.sessionToken) {
    return { kind: 'signed_in', sessionToken: signedIn.sessionToken };
  }
  return { kind: 'refused' };
}

function linkOutcome(outcome: GetLinkOutcomeResponse | undefined): LinkOutcome {
  const known = outcome === undefined ? undefined : LINK_STATUSES[outcome.status];
  if (!outcome || !known || (known === 'presented' && !outcome.presented)) {
    throw new InternalError({ detail: `wallet-bridge answered link status ${outcome?.status}` });
  }
  return {
    status: known,
    ...(outcome.message === undefined ? {} : { message: outcome.message }),
    ...(outcome.presented === undefined ? {} : { presented: presentedOf(outcome.presented) }),
  };
}

function presentedOf({ issuer, email }: PresentedMessage): PresentedCredential {
  return email === undefined ? { issuer } : { issuer, email };
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
