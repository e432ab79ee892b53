import { describe, expect, it } from 'vitest';
import { basicAuth, requestToken } from '../support/tokens.js';
import {
  auditEvents,
  claimsOf,
  describedError,
  exchange,
  introspectAs,
  JWT_BEARER,
  registerAgent,
  TOKEN_EXCHANGE,
} from '../support/exchange-helpers.js';
import { useAgentScene } from './agent-exchange-scene.js';

// Agent token exchange: chained delegation, and ID-JAG while the feature is off (docs/decisions.md #12,
// docs/agents.md); the scene is agent-exchange-scene.ts.
const scene = useAgentScene();
const { flow } = scene;

describe('chained delegation (RFC 8693 section 4.1)', () => {
  it('nests the earlier actor under a second agent, narrowing further, and never drops act', async () => {
    const second = await registerAgent(flow.suite, { scope: 'calendar:read' });
    const first = await exchange(flow.suite, scene.agent, scene.userToken, [
      ['scope', 'calendar:read calendar:write'],
    ]);
    const chained = await exchange(flow.suite, second, first.body.access_token as string, [
      ['scope', 'calendar:read'],
    ]);
    expect(chained.status).toBe(200);
    const token = chained.body.access_token as string;
    const claims = claimsOf(token);
    expect(claims).toMatchObject({
      sub: scene.user.id,
      client_id: second.clientId,
      scope: 'calendar:read',
      act: { sub: second.clientId, act: { sub: scene.agent.clientId } },
    });
    expect(claims.exp).toBeLessThanOrEqual(claimsOf(first.body.access_token).exp!);
    expect((await introspectAs(flow.suite, scene.web, token)).act).toEqual({
      sub: second.clientId,
      act: { sub: scene.agent.clientId },
    });
    const events = await auditEvents(flow.suite.oauthEnv.DATABASE_URL!, 'token_exchange');
    expect(events.at(-1)).toMatchObject({
      user_id: scene.user.id,
      details: { clientId: second.clientId, actorChain: [second.clientId, scene.agent.clientId] },
    });
    // The second agent may not widen what the first one was given.
    const wider = await exchange(flow.suite, second, chained.body.access_token as string, [
      ['scope', 'calendar:write'],
    ]);
    expect(wider.body.error).toBe('invalid_scope');
  });

  it('refuses a sixth actor (depth at most 5)', async () => {
    let token = scene.userToken;
    for (let depth = 1; depth <= 5; depth += 1) {
      const response = await exchange(flow.suite, scene.agent, token);
      expect(response.status).toBe(200);
      token = response.body.access_token as string;
    }
    const response = await exchange(flow.suite, scene.agent, token);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: describedError('invalid_request', 'The delegation chain is too long'),
    });
  });
});

describe('ID-JAG while ENTERPRISE_ASSERTION_ENABLED is off', () => {
  it('answers the jwt-bearer grant as unsupported', async () => {
    const response = await requestToken(
      flow.suite,
      [
        ['grant_type', JWT_BEARER],
        ['assertion', 'a.b.c'],
      ],
      basicAuth(scene.agent.clientId, scene.agent.clientSecret!),
    );
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: { error: 'unsupported_grant_type', code: 'UNSUPPORTED_GRANT_TYPE', statusCode: 400 },
    });
  });

  it('lists neither the jwt-bearer grant nor authorization_grant_profiles_supported', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const metadata = (await (await fetch(`${flow.suite.baseUrl}${path}`)).json()) as Record<
        string,
        unknown
      >;
      expect(metadata.grant_types_supported).toContain(TOKEN_EXCHANGE);
      expect(metadata.grant_types_supported).not.toContain(JWT_BEARER);
      expect(metadata).not.toHaveProperty('authorization_grant_profiles_supported');
    }
  });

  it('does not let dynamic registration hand out the jwt-bearer grant', async () => {
    const response = await fetch(`${flow.suite.baseUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_types: [JWT_BEARER], response_types: [] }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_client_metadata');
  });
});
