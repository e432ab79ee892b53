import type { MessageInitShape } from '@bufbuild/protobuf';
import type {
  GetSignInOutcomeRequest,
  GetSignInOutcomeResponseSchema,
} from '@authz/proto/walletbridge/v1/walletbridge';
import { SignInStatus } from '@authz/proto/walletbridge/v1/walletbridge';
import { NotFoundError } from '@authz/shared/errors';
import { requireWallet, type Registry } from '../registry.js';
import { isPastSettling, STATUS } from '../requests/presentation-request.js';
import { findBoundFlow } from './flow-lookup.js';
import { settleAnsweredFlow } from './settle-flow.js';

type Deps = Pick<Registry, 'requests' | 'wallet' | 'secretHashKey' | 'identity' | 'log'>;
type Outcome = MessageInitShape<typeof GetSignInOutcomeResponseSchema>;

const PENDING: Outcome = { status: SignInStatus.PENDING };
/** docs/wallet.md #13: one refusal for every failure, whatever its cause. */
const REFUSED: Outcome = { status: SignInStatus.REFUSED };

/**
 * interface.md 4.5 /ui/wallet-login/{handle}/status: pending until the wallet answers; then the
 * presentation is verified and, when its credential is linked to an account, identity opens a
 * browser session, delivered exactly once (the flow is settled as signed_in). Every other
 * outcome, including a second read, is the uniform refusal.
 */
export async function getSignInOutcome(deps: Deps, request: GetSignInOutcomeRequest): Promise<Outcome> {
  const config = requireWallet(deps);
  const flow = await findBoundFlow(deps, request.handle, request.binder, 'sign_in');
  if (!flow) return REFUSED;
  if (flow.status === STATUS.settling) return PENDING;
  if (flow.status === STATUS.pending) return flow.expiresAt.getTime() > Date.now() ? PENDING : REFUSED;
  if (flow.status !== STATUS.answered || isPastSettling(flow)) return REFUSED;

  const settlement = await settleAnsweredFlow(deps, config, flow);
  if (settlement.kind === 'busy') return PENDING;
  if (settlement.kind === 'rejected') return REFUSED;
  try {
    const signedIn = await deps.identity.signInWithWallet({
      credential: settlement.credential,
      origin: { ip: request.origin?.ip ?? '', userAgent: request.origin?.userAgent ?? '' },
    });
    await settlement.finish(STATUS.signedIn);
    return {
      status: SignInStatus.SIGNED_IN,
      signedIn: {
        userId: signedIn.user!.id,
        sessionId: signedIn.sessionId,
        sessionToken: signedIn.sessionToken,
        csrfToken: signedIn.csrfToken,
        authTime: signedIn.authTime,
      },
    };
  } catch (error) {
    if (!(error instanceof NotFoundError)) {
      await settlement.release();
      throw error;
    }
    // docs/wallet.md "Account mapping": a credential linked to no account signs nobody in.
    await settlement.finish(STATUS.refused);
    return REFUSED;
  }
}
