import type { MessageInitShape } from '@bufbuild/protobuf';
import { LinkWalletCredentialOutcome } from '@authz/proto/identity/v1/identity';
import type {
  GetLinkOutcomeRequest,
  GetLinkOutcomeResponseSchema,
} from '@authz/proto/walletbridge/v1/walletbridge';
import { LinkStatus } from '@authz/proto/walletbridge/v1/walletbridge';
import { NotFoundError } from '@authz/shared/errors';
import { requireBrowserSession } from '@authz/shared/sessions';
import { requireWallet, type Registry } from '../registry.js';
import { isPastSettling, STATUS } from '../requests/presentation-request.js';
import { findBoundFlow } from './flow-lookup.js';
import { settleAnsweredFlow } from './settle-flow.js';

type Deps = Pick<Registry, 'requests' | 'wallet' | 'secretHashKey' | 'identity' | 'log'>;
type Outcome = MessageInitShape<typeof GetLinkOutcomeResponseSchema>;

/** interface.md 3: one fixed sentence per status; a rejection never says which check failed. */
const OUTCOMES: Record<
  LinkStatus.PENDING | LinkStatus.LINKED | LinkStatus.CONFLICT | LinkStatus.EXPIRED | LinkStatus.REJECTED,
  Outcome
> = {
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
};

const SETTLED: Record<string, Outcome> = {
  [STATUS.linked]: OUTCOMES[LinkStatus.LINKED],
  [STATUS.conflict]: OUTCOMES[LinkStatus.CONFLICT],
  [STATUS.rejected]: OUTCOMES[LinkStatus.REJECTED],
  [STATUS.declined]: OUTCOMES[LinkStatus.REJECTED],
  [STATUS.settling]: OUTCOMES[LinkStatus.PENDING],
};

/**
 * interface.md 4.2 GET /auth/link/wallet/{handle}: 404 while off, 401 without a live session, then
 * the uniform refusal (NotFoundError) unless the handle, the binder cookie and the session's
 * user are the flow's own. Once the wallet has answered, the presentation is verified and
 * identity links the credential in one transaction (linked or conflict, nothing partial);
 * settled statuses are read again as they are.
 */
export async function getLinkOutcome(deps: Deps, request: GetLinkOutcomeRequest): Promise<Outcome> {
  const config = requireWallet(deps);
  const session = await requireBrowserSession(request.sessionToken, (sessionToken) =>
    deps.identity.getBrowserSession({ sessionToken }),
  );
  const flow = await findBoundFlow(deps, request.handle, request.binder, 'link');
  if (!flow || flow.userId !== session.user!.id)
    throw new NotFoundError({ detail: 'not this browser’s flow' });
  if (flow.status === STATUS.pending) {
    return flow.expiresAt.getTime() > Date.now()
      ? OUTCOMES[LinkStatus.PENDING]
      : OUTCOMES[LinkStatus.EXPIRED];
  }
  if (flow.status !== STATUS.answered) return SETTLED[flow.status] ?? OUTCOMES[LinkStatus.REJECTED];
  if (isPastSettling(flow)) return OUTCOMES[LinkStatus.EXPIRED];

  const settlement = await settleAnsweredFlow(deps, config, flow);
  if (settlement.kind === 'busy') return OUTCOMES[LinkStatus.PENDING];
  if (settlement.kind === 'rejected') return OUTCOMES[LinkStatus.REJECTED];
  let linked: LinkWalletCredentialOutcome;
  try {
    ({ outcome: linked } = await deps.identity.linkWalletCredential({
      userId: flow.userId,
      credential: settlement.credential,
    }));
  } catch (error) {
    await settlement.release();
    throw error;
  }
  const conflict = linked === LinkWalletCredentialOutcome.CONFLICT;
  await settlement.finish(conflict ? STATUS.conflict : STATUS.linked);
  return OUTCOMES[conflict ? LinkStatus.CONFLICT : LinkStatus.LINKED];
}
