import type { MessageInitShape } from '@bufbuild/protobuf';
import { LinkWalletCredentialOutcome } from '@authz/proto/identity/v1/identity';
import type {
  ConfirmLinkRequest,
  GetLinkOutcomeRequest,
  GetLinkOutcomeResponseSchema,
} from '@authz/proto/walletbridge/v1/walletbridge';
import { LinkStatus } from '@authz/proto/walletbridge/v1/walletbridge';
import { constantTimeEqual } from '@authz/shared/crypto';
import { InvalidCsrfTokenError, NotFoundError } from '@authz/shared/errors';
import { requireBrowserSession } from '@authz/shared/sessions';
import type { PresentationRequest } from '../generated/prisma/client.js';
import { requireWallet, type Registry } from '../registry.js';
import { isPastSettling, STATUS } from '../requests/presentation-request.js';
import { findBoundFlow } from './flow-lookup.js';
import {
  cancelPresentedFlow,
  confirmPresentedFlow,
  presentedCredential,
  verifyAnsweredFlow,
  viewOf,
} from './settle-flow.js';

type Deps = Pick<Registry, 'requests' | 'wallet' | 'secretHashKey' | 'identity' | 'log'>;
type Outcome = MessageInitShape<typeof GetLinkOutcomeResponseSchema>;

/** interface.md 3: one fixed sentence per status; a rejection never says which check failed. */
const OUTCOMES = {
  [LinkStatus.PENDING]: { status: LinkStatus.PENDING },
  [LinkStatus.LINKED]: {
    status: LinkStatus.LINKED,
    message: 'The wallet credential is linked to your account.',
  },
  [LinkStatus.CONFLICT]: {
    status: LinkStatus.CONFLICT,
    message: 'This wallet credential is already linked to another account.',
  },
  [LinkStatus.EXPIRED]: { status: LinkStatus.EXPIRED, message: 'The request expired. Start again.' },
  [LinkStatus.REJECTED]: {
    status: LinkStatus.REJECTED,
    message: 'The wallet presentation was not accepted.',
  },
  [LinkStatus.CANCELLED]: {
    status: LinkStatus.CANCELLED,
    message: 'Linking was cancelled. Nothing was linked.',
  },
} satisfies Record<number, Outcome>;

const SETTLED: Record<string, Outcome> = {
  [STATUS.linked]: OUTCOMES[LinkStatus.LINKED],
  [STATUS.conflict]: OUTCOMES[LinkStatus.CONFLICT],
  [STATUS.rejected]: OUTCOMES[LinkStatus.REJECTED],
  [STATUS.declined]: OUTCOMES[LinkStatus.REJECTED],
  [STATUS.cancelled]: OUTCOMES[LinkStatus.CANCELLED],
  [STATUS.settling]: OUTCOMES[LinkStatus.PENDING],
};

/**
 * interface.md 4.2 GET /auth/link/wallet/{handle}: 404 while off, 401 without a live session, then
 * the uniform refusal (NotFoundError) unless the flow id, the binder cookie and the session's
 * user are the flow's own. Once the wallet has answered, the presentation is verified and
 * shown as `presented` (issuer, email) for this browser to confirm (docs/wallet.md #16);
 * nothing is linked here. Settled statuses are read again as they are.
 */
export async function getLinkOutcome(deps: Deps, request: GetLinkOutcomeRequest): Promise<Outcome> {
  const flow = await ownFlow(deps, request);
  return readOutcome(deps, flow);
}

/**
 * docs/wallet.md #16: the starting browser's decision, with the session's CSRF token (as the
 * start, docs/decisions.md #19). Confirm asks identity to link the verified credential (linked
 * or conflict, nothing partial); cancel links nothing. A flow not awaiting a decision answers
 * its current status and is not changed.
 */
export async function confirmLink(deps: Deps, request: ConfirmLinkRequest): Promise<Outcome> {
  const flow = await ownFlow(deps, request, request.csrfToken);
  if (flow.status !== STATUS.presented || isPastSettling(flow)) return readOutcome(deps, flow);
  if (!request.confirm) {
    await cancelPresentedFlow(deps, flow);
    return readOutcome(deps, (await deps.requests.findByFlowId(flow.flowId)) ?? flow);
  }
  const decided = await confirmPresentedFlow(deps, flow, async (credential) => {
    const { outcome } = await deps.identity.linkWalletCredential({ userId: flow.userId!, credential });
    const conflict = outcome === LinkWalletCredentialOutcome.CONFLICT;
    return {
      status: conflict ? STATUS.conflict : STATUS.linked,
      value: OUTCOMES[conflict ? LinkStatus.CONFLICT : LinkStatus.LINKED],
    };
  });
  if (decided.kind === 'done') return decided.value;
  return readOutcome(deps, (await deps.requests.findByFlowId(flow.flowId)) ?? flow);
}

/** 404 while off, 401 without a live session, 400 for a wrong CSRF token (when one is asked for), else the uniform refusal. */
async function ownFlow(
  deps: Deps,
  request: { handle: string; binder: string; sessionToken: string },
  csrfToken?: string,
): Promise<PresentationRequest> {
  requireWallet(deps);
  const session = await requireBrowserSession(request.sessionToken, (sessionToken) =>
    deps.identity.getBrowserSession({ sessionToken }),
  );
  if (csrfToken !== undefined && (!csrfToken || !constantTimeEqual(csrfToken, session.csrfToken))) {
    throw new InvalidCsrfTokenError({ detail: 'CSRF token missing or not the session token' });
  }
  const flow = await findBoundFlow(deps, request.handle, request.binder, 'link');
  if (!flow || flow.userId !== session.user!.id)
    throw new NotFoundError({ detail: 'not this browser’s flow' });
  return flow;
}

async function readOutcome(deps: Deps, flow: PresentationRequest): Promise<Outcome> {
  const config = requireWallet(deps);
  if (flow.status === STATUS.pending) {
    return flow.expiresAt.getTime() > Date.now()
      ? OUTCOMES[LinkStatus.PENDING]
      : OUTCOMES[LinkStatus.EXPIRED];
  }
  if (flow.status === STATUS.presented) {
    return isPastSettling(flow)
      ? OUTCOMES[LinkStatus.EXPIRED]
      : { status: LinkStatus.PRESENTED, presented: viewOf(presentedCredential(flow)) };
  }
  if (flow.status !== STATUS.answered) return SETTLED[flow.status] ?? OUTCOMES[LinkStatus.REJECTED];
  if (isPastSettling(flow)) return OUTCOMES[LinkStatus.EXPIRED];

  const settlement = await verifyAnsweredFlow(deps, config, flow);
  if (settlement.kind === 'busy') return OUTCOMES[LinkStatus.PENDING];
  if (settlement.kind === 'rejected') return OUTCOMES[LinkStatus.REJECTED];
  return { status: LinkStatus.PRESENTED, presented: settlement.view };
}
