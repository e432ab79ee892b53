import { InvalidRequestError, UnauthorizedClientError } from '@authz/shared/errors';
import { mintAccessToken } from '../access-token/access-token.js';
import { actorChain, ActorChainError, delegateTo, type Actor } from '../delegation/actor.js';
import type { AuthenticatedClient } from '../client-authentication/authenticated-client.js';
import type { GrantRequest } from '../grants/grant.js';
import type { Registry } from '../../registry.js';
import { formatScope } from '../scope/scope.js';
import { tokenTypeOf } from '../dpop/dpop-binding.js';
import type { TokenSet } from '../token/token-set.js';
import { checkActorToken } from './actor-token.js';
import { narrowAudience, narrowScope } from './narrow-delegation.js';
import { readSubjectToken } from './subject-token.js';
import { ACCESS_TOKEN_TYPE } from './token-types.js';
import { lineageOfSubject, recordDerivedToken } from '../token-lineage/token-lineage.js';

type Deps = Pick<
  Registry,
  'keys' | 'accessTokenSignatures' | 'config' | 'denyList' | 'identity' | 'audit' | 'derivedTokens'
>;

/**
 * docs/decisions.md #12: an agent trades a user's access token for a narrower one naming it as the
 * actor (RFC 8693 section 4.1). Nothing widens: scope within the subject's and the agent's
 * cap, audience within the subject's, expiry no later than the subject's; no refresh token.
 * Holding the subject token is the delegation; `act` makes the agent accountable.
 */
export async function exchangeForAgent(
  deps: Deps,
  { client, parameters, origin, dpop }: GrantRequest,
): Promise<TokenSet> {
  checkAgent(client);
  const subject = await readSubjectToken(deps, parameters.get('subject_token')!);
  await checkActorToken(deps, client, parameters.get('actor_token'));
  const scope = narrowScope(parameters.get('scope'), subject.scope, agentScopeCap(client));
  const audience = narrowAudience(
    [...parameters.getAll('audience'), ...parameters.getAll('resource')],
    subject.aud,
  );
  const act = nestActor(client.clientId, subject.act);
  const { user } = subject;
  const issued = await mintAccessToken(deps, {
    sub: user.id,
    clientId: client.clientId,
    audience,
    scope,
    user: { email: user.email, emailVerified: user.emailVerified },
    act,
    notAfter: subject.claims.exp,
    ...(dpop ? { dpopJkt: dpop.jkt } : {}),
  });
  // docs/tokens.md #30: the new token ends with the session, family or consent of the subject.
  const lineage = await lineageOfSubject(deps, subject.claims);
  if (!(await recordDerivedToken(deps, issued, user.id, lineage))) {
    throw new InvalidRequestError({
      message: 'The subject token is not active',
      detail: 'lineage revoked meanwhile',
    });
  }
  await deps.audit.recordDelegation({
    type: 'token_exchange',
    userId: user.id,
    clientId: client.clientId,
    actorChain: actorChain(act),
    origin,
    details: { subjectJti: subject.claims.jti, subjectClientId: subject.claims.clientId, jti: issued.jti },
  });
  return {
    accessToken: issued.token,
    expiresIn: issued.expiresIn,
    tokenType: tokenTypeOf(dpop),
    ...(scope.length > 0 ? { scope: formatScope(scope) } : {}),
    issuedTokenType: ACCESS_TOKEN_TYPE,
  };
}

// docs/decisions.md #12: is_agent is self-asserted and enables this narrowing exchange, nothing else.
function checkAgent(client: AuthenticatedClient): void {
  if (!client.isAgent) {
    throw new UnauthorizedClientError({ message: 'Only agent clients may exchange tokens' });
  }
}

/**
 * interface.md 2.2: the per-client cap of agent scope modes; unset, the agent's registered scopes
 * (docs/decisions.md #12). Either way within the client's allow-list (docs/decisions.md #8).
 */
export function agentScopeCap(client: Pick<AuthenticatedClient, 'scopes' | 'agentScopeModes'>): string[] {
  if (client.agentScopeModes.length === 0) return [...client.scopes];
  return client.agentScopeModes.filter((mode) => client.scopes.includes(mode));
}

function nestActor(agent: string, before: Actor | undefined): Actor {
  try {
    return delegateTo(agent, before);
  } catch (error) {
    if (error instanceof ActorChainError) {
      throw new InvalidRequestError({ message: 'The delegation chain is too long', detail: error.message });
    }
    throw error;
  }
}
