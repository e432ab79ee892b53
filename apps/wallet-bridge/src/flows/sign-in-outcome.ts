import type { MessageInitShape } from '@bufbuild/protobuf';
import type {
  ConfirmSignInRequest,
  GetSignInOutcomeRequest,
  GetSignInOutcomeResponseSchema,
} from '@authz/proto/walletbridge/v1/walletbridge';
import { SignInStatus } from '@authz/proto/walletbridge/v1/walletbridge';
import { NotFoundError } from '@authz/shared/errors';
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
type Outcome = MessageInitShape<typeof GetSignInOutcomeResponseSchema>;

const PENDING: Outcome = { status: SignInStatus.PENDING };
/** docs/wallet.md #13: one refusal for every failure, whatever its cause. */
const REFUSED: Outcome = { status: SignInStatus.REFUSED };

/**
 * interface.md 4.5 /ui/wallet-login/{handle}/status: pending until the wallet answers; then the
 * presentation is verified and shown as `presented` (issuer, email) for the starting browser to
 * confirm (docs/wallet.md #16). Nobody is signed in here. Every other outcome is the uniform
 * refusal.
 */
export async function getSignInOutcome(deps: Deps, request: GetSignInOutcomeRequest): Promise<Outcome> {
  const config = requireWallet(deps);
  const flow = await findBoundFlow(deps, request.handle, request.binder, 'sign_in');
  if (!flow) return REFUSED;
  if (flow.status === STATUS.settling) return PENDING;
  if (flow.status === STATUS.pending) return flow.expiresAt.getTime() > Date.now() ? PENDING : REFUSED;
  if (flow.status === STATUS.presented) return presentedOutcome(flow);
  if (flow.status !== STATUS.answered || isPastSettling(flow)) return REFUSED;

  const settlement = await verifyAnsweredFlow(deps, config, flow);
  if (settlement.kind === 'busy') return PENDING;
  if (settlement.kind === 'rejected') return REFUSED;
  return { status: SignInStatus.PRESENTED, presented: settlement.view };
}

/**
 * docs/wallet.md #16: the starting browser's decision (its form's CSRF token is checked by the
 * page). Confirm: when the credential is linked to an account, identity opens a browser session,
 * delivered exactly once (signed_in); a credential linked to no account is refused. Cancel, or
 * any flow not awaiting a decision: the uniform refusal, nobody signed in.
 */
export async function confirmSignIn(deps: Deps, request: ConfirmSignInRequest): Promise<Outcome> {
  requireWallet(deps);
  const flow = await findBoundFlow(deps, request.handle, request.binder, 'sign_in');
  if (!flow || flow.status !== STATUS.presented || isPastSettling(flow)) return REFUSED;
  if (!request.confirm) {
    await cancelPresentedFlow(deps, flow);
    return REFUSED;
  }
  const decided = await confirmPresentedFlow(deps, flow, async (credential) => {
    try {
      const signedIn = await deps.identity.signInWithWallet({
        credential,
        origin: { ip: request.origin?.ip ?? '', userAgent: request.origin?.userAgent ?? '' },
      });
      const outcome: Outcome = {
        status: SignInStatus.SIGNED_IN,
        signedIn: {
          userId: signedIn.user!.id,
          sessionId: signedIn.sessionId,
          sessionToken: signedIn.sessionToken,
          csrfToken: signedIn.csrfToken,
          authTime: signedIn.authTime,
        },
      };
      return { status: STATUS.signedIn, value: outcome };
    } catch (error) {
      // docs/wallet.md "Account mapping": a credential linked to no account signs nobody in.
      if (error instanceof NotFoundError) return { status: STATUS.refused, value: REFUSED };
      throw error;
    }
  });
  return decided.kind === 'done' ? decided.value : REFUSED;
}

function presentedOutcome(flow: PresentationRequest): Outcome {
  if (isPastSettling(flow)) return REFUSED;
  return { status: SignInStatus.PRESENTED, presented: viewOf(presentedCredential(flow)) };
}
