import {
  UpstreamFlowPurpose,
  type StartUpstreamFlowRequest,
  type StartUpstreamFlowResponseSchema,
} from '@authz/proto/identity/v1/federation';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { randomHexToken } from '@authz/shared/crypto';
import { InvalidRequestError, NotFoundError } from '@authz/shared/errors';
import * as client from 'openid-client';
import { isUuid } from '../accounts/get-user.js';
import type { Registry } from '../registry.js';
import { federationCallbackUrl } from './callback-url.js';
import { UPSTREAM_FLOW_TTL_SECONDS, type UpstreamFlow } from './upstream-flow-store.js';

type Deps = Pick<
  Registry,
  'upstreamProviders' | 'upstreamConfigurations' | 'upstreamFlows' | 'accounts' | 'issuer'
>;

/**
 * interface.md 4.14 GET /ui/federation/{id}/start: the authorization request to the upstream
 * (OIDC Core 1.0 section 3.1.2.1) with PKCE S256 (RFC 7636), `state` and `nonce`, each 256
 * random bits, remembered under the browser's new binder (docs/federation.md #6).
 */
export async function startUpstreamFlow(
  deps: Deps,
  request: StartUpstreamFlowRequest,
): Promise<MessageInitShape<typeof StartUpstreamFlowResponseSchema>> {
  const provider = deps.upstreamProviders.find(({ id }) => id === request.providerId);
  if (!provider) throw new NotFoundError({ detail: 'unknown upstream provider' });
  const flow = await flowFor(deps, request);
  const configuration = await deps.upstreamConfigurations.get(provider);
  const authorizationUrl = client.buildAuthorizationUrl(configuration, {
    redirect_uri: federationCallbackUrl(deps.issuer),
    scope: provider.scopes,
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
    code_challenge_method: 'S256',
  });
  const binder = randomHexToken();
  await deps.upstreamFlows.save(binder, flow);
  return {
    authorizationUrl: authorizationUrl.href,
    binder,
    expiresAt: BigInt(Date.now() + UPSTREAM_FLOW_TTL_SECONDS * 1000),
  };
}

async function flowFor(deps: Deps, request: StartUpstreamFlowRequest): Promise<UpstreamFlow> {
  const secrets = {
    providerId: request.providerId,
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
  };
  if (request.purpose === UpstreamFlowPurpose.SIGN_IN) {
    return {
      ...secrets,
      purpose: 'sign_in',
      ...(request.pendingHandle ? { pendingHandle: request.pendingHandle } : {}),
    };
  }
  if (request.purpose === UpstreamFlowPurpose.LINK) {
    const userId = request.userId ?? '';
    if (!isUuid(userId) || !(await deps.accounts.findById(userId))) throw new NotFoundError();
    return { ...secrets, purpose: 'link', userId };
  }
  throw new InvalidRequestError({ message: 'purpose is required' });
}
