import type { PresentationRequest } from '../generated/prisma/client.js';
import type { Registry } from '../registry.js';
import { STATUS } from '../requests/presentation-request.js';
import { verifyPresentation } from '../verification/verify-presentation.js';
import { PresentationRejected, type VerifiedCredential } from '../verification/verified-credential.js';
import type { WalletConfig } from '../verifier/wallet-config.js';

type Deps = Pick<Registry, 'requests' | 'log'>;

export type Settlement =
  | { kind: 'busy' }
  | { kind: 'rejected' }
  | {
      kind: 'verified';
      credential: VerifiedCredential;
      finish(status: string): Promise<void>;
      release(): Promise<void>;
    };

/**
 * Claims an answered flow for this reader alone (answered -> settling, atomically: two polls
 * never both act on one presentation), verifies the presentation, and erases the vp_token
 * whatever the result. A rejected presentation is settled as `rejected` at once; a verified
 * one is handed back with `finish` for the caller's final status. Should the caller fail in
 * between (identity unreachable), `release` puts the flow back so a later poll retries.
 */
export async function settleAnsweredFlow(
  deps: Deps,
  config: WalletConfig,
  request: PresentationRequest,
): Promise<Settlement> {
  if (!(await deps.requests.claim(request.handle))) return { kind: 'busy' };
  const finish = (status: string) => deps.requests.settle(request.handle, status, new Date());
  const release = () => deps.requests.release(request.handle);
  try {
    const credential = await verifyPresentation(config, request.vpToken ?? '', request);
    return { kind: 'verified', credential, finish, release };
  } catch (error) {
    if (!(error instanceof PresentationRejected)) {
      await release();
      throw error;
    }
    // The reason goes to the log only (docs/wallet.md #8): the browser sees the uniform refusal.
    deps.log.info({ purpose: request.purpose, reason: error.message }, 'wallet presentation rejected');
    await finish(STATUS.rejected);
    return { kind: 'rejected' };
  }
}
