import {
  UpstreamFlowOutcome,
  type CompleteUpstreamFlowRequest,
  type CompleteUpstreamFlowResponseSchema,
} from '@authz/proto/identity/v1/federation';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { constantTimeEqual, randomHexToken } from '@authz/shared/crypto';
import { NotFoundError } from '@authz/shared/errors';
import * as client from 'openid-client';
import { parseEmail } from '../accounts/email.js';
import type { Registry } from '../registry.js';
import { sessionTokenHash } from '../sessions/browser-session-token.js';
import { sessionUserAgent } from '../sessions/session-user-agent.js';
import { federationCallbackUrl } from './callback-url.js';
import type { UpstreamIdentity } from './federated-credential-store.js';
import { federatedSubjectHash, providerType } from './federated-subject.js';
import type { UpstreamFlow } from './upstream-flow-store.js';
import type { UpstreamProvider } from './upstream-providers-file.js';

type Deps = Pick<
  Registry,
  | 'upstreamProviders'
  | 'upstreamConfigurations'
  | 'upstreamFlows'
  | 'federatedCredentials'
  | 'secretHashKey'
  | 'sessionTtlSeconds'
  | 'defaultRealmId'
  | 'issuer'
  | 'log'
>;
type Response = MessageInitShape<typeof CompleteUpstreamFlowResponseSchema>;

const BINDER = /^[0-9a-f]{64}$/;

/** A refusal whose reason reaches the log only (docs/federation.md #8). */
class Refusal extends Error {}

/**
 * interface.md 4.14 GET /ui/federation/callback. The flow is taken once, by the browser that
 * started it; openid-client then checks the response (RFC 9207 `iss`, `state`), redeems the
 * code with the PKCE verifier and validates the ID token (OIDC Core 1.0 section 3.1.3.7:
 * signature, `iss`, `aud`, `azp`, `exp`, `iat`, `nonce`). Every failure is the one
 * NotFoundError: which check failed is logged, never answered.
 */
export async function completeUpstreamFlow(
  deps: Deps,
  request: CompleteUpstreamFlowRequest,
): Promise<Response> {
  try {
    if (!BINDER.test(request.binder)) throw new Refusal('no flow cookie');
    const flow = await deps.upstreamFlows.take(request.binder);
    if (!flow) throw new Refusal('no flow for this browser (unknown, used or expired)');
    const provider = deps.upstreamProviders.find(({ id }) => id === flow.providerId);
    if (!provider) throw new Refusal('provider no longer configured');
    const identity = await upstreamIdentity(deps, provider, flow, request.callbackQuery);
    return flow.purpose === 'link'
      ? await link(deps, flow, identity, request)
      : await signIn(deps, provider, flow, identity, request);
  } catch (error) {
    if (error instanceof NotFoundError) throw error;
    deps.log.info({ reason: reasonOf(error) }, 'upstream sign-in refused');
    throw new NotFoundError({ detail: 'upstream sign-in refused' });
  }
}

async function upstreamIdentity(
  deps: Deps,
  provider: UpstreamProvider,
  flow: UpstreamFlow,
  callbackQuery: string,
): Promise<UpstreamIdentity> {
  const redirectUri = federationCallbackUrl(deps.issuer);
  // openid-client sends this URL without its query as the token request's redirect_uri.
  const currentUrl = new URL(`${redirectUri}?${callbackQuery}`);
  // Checked here in constant time before openid-client compares it again.
  const state = currentUrl.searchParams.get('state') ?? '';
  if (!constantTimeEqual(state, flow.state)) throw new Refusal('state does not match the flow');
  const configuration = await deps.upstreamConfigurations.get(provider);
  const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
    pkceCodeVerifier: flow.codeVerifier,
    expectedState: flow.state,
    expectedNonce: flow.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Refusal('no ID token');
  let { email, email_verified: emailVerified } = claims;
  // Some upstreams put the email claims in UserInfo only (OIDC Core 1.0 section 5.4).
  if (email === undefined && configuration.serverMetadata().userinfo_endpoint) {
    const userInfo = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
    ({ email, email_verified: emailVerified } = userInfo);
  }
  const address = typeof email === 'string' ? (parseEmail(email) ?? null) : null;
  return {
    providerId: provider.id,
    issuer: claims.iss,
    subjectHash: federatedSubjectHash(deps.secretHashKey, provider.id, claims.sub),
    email: address,
    // docs/federation.md #10: only a provider trusted for email, and only when it says so.
    emailTrusted: provider.trustEmail && emailVerified === true && address !== null,
  };
}

async function signIn(
  deps: Deps,
  provider: UpstreamProvider,
  flow: UpstreamFlow,
  identity: UpstreamIdentity,
  request: CompleteUpstreamFlowRequest,
): Promise<Response> {
  const sessionToken = randomHexToken();
  const authTime = new Date(Math.floor(Date.now() / 1000) * 1000);
  const details = { browserSession: true, provider: providerType(provider.id) };
  const signedIn = await deps.federatedCredentials.signIn(
    identity,
    {
      joinByEmail: provider.trustEmail,
      createAccount: provider.createAccounts,
      realmId: deps.defaultRealmId,
    },
    {
      authTime,
      expiresAt: new Date(authTime.getTime() + deps.sessionTtlSeconds * 1000),
      tokenHash: sessionTokenHash(deps.secretHashKey, sessionToken),
      userAgent: sessionUserAgent(request.origin),
    },
    {
      login: { type: 'login_success', origin: request.origin, details },
      linked: {
        type: 'federated_identity_linked',
        origin: request.origin,
        details: { provider: details.provider },
      },
      registration: { type: 'registration', origin: request.origin, details: { provider: details.provider } },
    },
  );
  if (!signedIn) throw new Refusal('no account for this upstream identity under the provider rules');
  return {
    outcome: UpstreamFlowOutcome.SIGNED_IN,
    sessionToken,
    ...(flow.pendingHandle ? { pendingHandle: flow.pendingHandle } : {}),
  };
}

async function link(
  deps: Deps,
  flow: UpstreamFlow,
  identity: UpstreamIdentity,
  request: CompleteUpstreamFlowRequest,
): Promise<Response> {
  const linked = await deps.federatedCredentials.link(flow.userId!, identity, {
    type: 'federated_identity_linked',
    origin: request.origin,
    details: { provider: providerType(flow.providerId) },
  });
  if (!linked) throw new Refusal('the linking account is gone');
  return {
    outcome: linked === 'conflict' ? UpstreamFlowOutcome.CONFLICT : UpstreamFlowOutcome.LINKED,
  };
}

function reasonOf(error: unknown): string {
  if (error instanceof Refusal) return error.message;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return 'unknown';
}
