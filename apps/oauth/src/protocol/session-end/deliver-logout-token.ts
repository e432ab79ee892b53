import { OAuthError } from '@authz/shared/errors';
import type { Registry } from '../../registry.js';
import type { BackchannelLogoutJob, LogoutTokenSender } from './backchannel-port.js';
import { mintLogoutToken } from './logout-token.js';

/** The delivery cannot succeed by trying again: the queue stops retrying. */
export class FinalDeliveryError extends Error {
  constructor(
    readonly outcome: 'rejected' | 'dropped',
    message: string,
  ) {
    super(message);
    this.name = 'FinalDeliveryError';
  }
}

/** A refusal worth another try (network, timeout, 5xx, 408, 429). */
export class RetryableDeliveryError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'RetryableDeliveryError';
  }
}

export type DeliveryDeps = Pick<Registry, 'keys' | 'config' | 'clients'> & { send: LogoutTokenSender };

/**
 * OIDC Back-Channel Logout 1.0 section 2.5: POST `logout_token` to the client's registered URI,
 * read again at each attempt (a client that removed it, or no longer resolves, is dropped). 2xx
 * is delivered (section 2.8 answers 200, some send 204); a 4xx other than 408 and 429 means
 * the client refused this token, which a retry would not change.
 */
export async function deliverLogoutToken(deps: DeliveryDeps, job: BackchannelLogoutJob): Promise<void> {
  const uri = await currentLogoutUri(deps, job.clientId);
  const token = await mintLogoutToken(deps, job);
  let status: number;
  try {
    ({ status } = await deps.send(uri, token));
  } catch (error) {
    throw new RetryableDeliveryError(`logout token not delivered: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (status >= 200 && status < 300) return;
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    throw new FinalDeliveryError('rejected', `the client answered ${status}`);
  }
  throw new RetryableDeliveryError(`the client answered ${status}`);
}

async function currentLogoutUri(deps: Pick<Registry, 'clients'>, clientId: string): Promise<string> {
  try {
    const { backchannelLogoutUri } = await deps.clients.resolveClient(clientId);
    if (backchannelLogoutUri !== undefined) return backchannelLogoutUri;
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
  }
  throw new FinalDeliveryError('dropped', 'the client no longer has a back-channel logout URI');
}
