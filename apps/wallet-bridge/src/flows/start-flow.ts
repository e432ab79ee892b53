import type { MessageInitShape } from '@bufbuild/protobuf';
import type { FlowStartedSchema, StartLinkRequest } from '@authz/proto/walletbridge/v1/walletbridge';
import { constantTimeEqual, randomHexToken } from '@authz/shared/crypto';
import { InvalidCsrfTokenError, UnauthorizedError } from '@authz/shared/errors';
import { WALLET_LINK_SIGN_IN_MAX_AGE_SECONDS } from '@authz/shared/protocol';
import { requireBrowserSession } from '@authz/shared/sessions';
import { requireWallet, type Registry } from '../registry.js';
import { binderHash, randomIdentifier, type Purpose } from '../requests/presentation-request.js';
import { invocationUri } from '../requests/request-object.js';

type Deps = Pick<Registry, 'requests' | 'wallet' | 'secretHashKey' | 'identity'>;
type FlowStarted = MessageInitShape<typeof FlowStartedSchema>;

/** The one answer to a live but too old sign-in; the pages tell it by its message. */
export const REAUTHENTICATE_MESSAGE = 'Sign in again to link a wallet';

/** interface.md 4.5 /ui/wallet-login: a sign-in flow, bound to the browser that started it. */
export async function startSignIn(deps: Deps): Promise<FlowStarted> {
  requireWallet(deps);
  return createFlow(deps, 'sign_in', null);
}

/**
 * interface.md 4.2 POST /auth/link/wallet: 404 while off (checked first, docs/decisions.md #25), then 401
 * without a live session (identity's UnauthorizedError), then 400 invalid_csrf_token
 * (docs/decisions.md #17, #19), then 401 again when the sign-in is older than 5 minutes
 * (docs/wallet.md #19: whoever finds a browser left signed in cannot attach a wallet sign-in to
 * the account); the flow remembers the user who started it.
 */
export async function startLink(deps: Deps, request: StartLinkRequest): Promise<FlowStarted> {
  requireWallet(deps);
  const session = await requireBrowserSession(request.sessionToken, (sessionToken) =>
    deps.identity.getBrowserSession({ sessionToken }),
  );
  if (!request.csrfToken || !constantTimeEqual(request.csrfToken, session.csrfToken)) {
    throw new InvalidCsrfTokenError({ detail: 'CSRF token missing or not the session token' });
  }
  if (Number(session.authTime) * 1000 < Date.now() - WALLET_LINK_SIGN_IN_MAX_AGE_SECONDS * 1000) {
    throw new UnauthorizedError({ message: REAUTHENTICATE_MESSAGE, detail: 'sign-in older than 5 minutes' });
  }
  return createFlow(deps, 'link', session.user!.id);
}

/**
 * docs/wallet.md #2: single-use, short-lived, with handle, state, nonce, purpose and binder. The
 * browser is told the flow id, never the transport handle, which only the invocation URI
 * carries (docs/wallet.md #17).
 */
async function createFlow(deps: Deps, purpose: Purpose, userId: string | null): Promise<FlowStarted> {
  const config = requireWallet(deps);
  const binder = randomHexToken();
  const now = Date.now();
  const request = await deps.requests.create({
    handle: randomIdentifier(),
    flowId: randomIdentifier(),
    purpose,
    state: randomIdentifier(),
    nonce: randomIdentifier(),
    binderHash: binderHash(deps.secretHashKey, binder),
    userId,
    createdAt: new Date(now),
    expiresAt: new Date(now + config.requestTtlSeconds * 1000),
  });
  return {
    handle: request.flowId,
    invocationUri: invocationUri(config, request.handle),
    expiresAt: BigInt(request.expiresAt.getTime()),
    binder,
  };
}
