import { exchangeForAgent } from '../token-exchange/agent-exchange.js';
import { checkTokenTypes } from '../token-exchange/check-token-types.js';
import { issueIdJag } from '../id-jag/issue-id-jag.js';
import type { Registry } from '../../registry.js';
import type { TokenSet } from '../token/token-set.js';
import type { GrantRequest } from './grant.js';

/**
 * RFC 8693 token exchange (interface.md 4.3): an agent's narrowing delegation (docs/decisions.md #12,
 * docs/agents.md) or, while ENTERPRISE_ASSERTION_ENABLED is on, an ID-JAG for another
 * authorization server (docs/decisions.md #13, docs/enterprise-assertions.md). The token types
 * decide which; neither issues a refresh token.
 */
export const grantType = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const parameters = [
  'subject_token',
  'subject_token_type',
  'actor_token',
  'actor_token_type',
  'requested_token_type',
  'scope',
  'audience',
  'resource',
] as const;

export async function handle(deps: Registry, request: GrantRequest): Promise<TokenSet> {
  const requested = checkTokenTypes(request.parameters, deps.enterprise !== undefined);
  return requested === 'id_jag' ? issueIdJag(deps, request) : exchangeForAgent(deps, request);
}
