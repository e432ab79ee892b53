import type { PresentationRequest } from '../generated/prisma/client.js';
import type { Registry } from '../registry.js';
import { STATUS, type PresentedCredentialView } from '../requests/presentation-request.js';
import { verifyPresentation } from '../verification/verify-presentation.js';
import { PresentationRejected, type VerifiedCredential } from '../verification/verified-credential.js';
import type { WalletConfig } from '../verifier/wallet-config.js';

type Deps = Pick<Registry, 'requests' | 'log'>;

export type Settlement =
  { kind: 'busy' } | { kind: 'rejected' } | { kind: 'presented'; view: PresentedCredentialView };

/**
 * Claims an answered flow for this reader alone (answered -> settling, atomically: two polls
 * never both act on one presentation), verifies the presentation, and erases the vp_token
 * whatever the result. A rejected presentation is settled as `rejected` at once; a verified
 * one is kept as `presented` until the starting browser decides (docs/wallet.md #16): nothing
 * is linked and nobody signed in on the strength of the wallet's answer alone.
 */
export async function verifyAnsweredFlow(
  deps: Deps,
  config: WalletConfig,
  request: PresentationRequest,
): Promise<Settlement> {
  if (!(await deps.requests.claim(request.handle, STATUS.answered))) return { kind: 'busy' };
  let credential: VerifiedCredential;
  try {
    credential = await verifyPresentation(config, request.vpToken ?? '', request);
  } catch (error) {
    if (!(error instanceof PresentationRejected)) {
      await deps.requests.release(request.handle, STATUS.answered);
      throw error;
    }
    // The reason goes to the log only (docs/wallet.md #8): the browser sees the uniform refusal.
    deps.log.info({ purpose: request.purpose, reason: error.message }, 'wallet presentation rejected');
    await deps.requests.settle(request.handle, STATUS.rejected, new Date());
    return { kind: 'rejected' };
  }
  await deps.requests.present(request.handle, JSON.stringify(credential));
  return { kind: 'presented', view: viewOf(credential) };
}

/** The credential a presented flow holds, as verified (docs/wallet.md #8). */
export function presentedCredential(request: PresentationRequest): VerifiedCredential {
  const { issuer, subject, email } = JSON.parse(request.presented ?? '{}') as Partial<VerifiedCredential>;
  if (typeof issuer !== 'string' || typeof subject !== 'string') {
    throw new Error('a presented flow holds no verified credential');
  }
  return { issuer, subject, ...(typeof email === 'string' ? { email } : {}) };
}

/** What the starting browser is shown: the issuer and the disclosed email, never the subject. */
export function viewOf(credential: VerifiedCredential): PresentedCredentialView {
  return {
    issuer: credential.issuer,
    ...(credential.email === undefined ? {} : { email: credential.email }),
  };
}

export type Decision<T> = { kind: 'busy' } | { kind: 'done'; value: T };

/**
 * The starting browser's confirmation of a presented flow: claims it (presented -> settling,
 * one decision wins), runs `act` with the verified credential, and settles it with the status
 * `act` answers. Should `act` fail (identity unreachable), the flow goes back to presented so
 * the browser can confirm again.
 */
export async function confirmPresentedFlow<T>(
  deps: Deps,
  request: PresentationRequest,
  act: (credential: VerifiedCredential) => Promise<{ status: string; value: T }>,
): Promise<Decision<T>> {
  if (!(await deps.requests.claim(request.handle, STATUS.presented))) return { kind: 'busy' };
  let outcome: { status: string; value: T };
  try {
    outcome = await act(presentedCredential(request));
  } catch (error) {
    await deps.requests.release(request.handle, STATUS.presented);
    throw error;
  }
  await deps.requests.settle(request.handle, outcome.status, new Date());
  return { kind: 'done', value: outcome.value };
}

/** Cancel: presented -> cancelled, erasing the credential; false when no longer presented. */
export function cancelPresentedFlow(deps: Deps, request: PresentationRequest): Promise<boolean> {
  return deps.requests.settle(request.handle, STATUS.cancelled, new Date(), STATUS.presented);
}
