import { describe, expect, it } from 'vitest';
import { authorizedTokens, newAppClient } from '../support/code-flow.js';
import { revoke } from '../support/token-management.js';
import { basicAuth, withAlteredSignature } from '../support/tokens.js';
import {
  ACCESS_TOKEN_TYPE,
  claimsOf,
  describedError,
  exchange,
  ID_JAG_TYPE,
  registerAgent,
  TOKEN_EXCHANGE,
  tokenRequest,
} from '../support/exchange-helpers.js';
import { NOT_ACTIVE, useAgentScene } from './agent-exchange-scene.js';

// Agent token exchange: nothing widens, and which token types and subject tokens are refused
// (docs/decisions.md #12, docs/agents.md); the scene is agent-exchange-scene.ts.
const scene = useAgentScene();
const { flow } = scene;

describe('nothing widens', () => {
  it('refuses a scope the subject token does not have', async () => {
    const narrow = await authorizedTokens(flow, scene.web, scene.user, { scope: 'calendar:read' });
    const response = await exchange(flow.suite, scene.agent, narrow.access_token as string, [
      ['scope', 'calendar:read calendar:write'],
    ]);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: describedError(
        'invalid_scope',
        'The requested scope exceeds what the subject token and the client allow',
      ),
    });
  });

  it("refuses a scope outside the agent's cap, and modes are independent scopes", async () => {
    const writer = await registerAgent(flow.suite, {
      scope: 'calendar:read calendar:write',
      agent_scope_modes: 'calendar:write',
    });
    expect(writer.agent_scope_modes).toBe('calendar:write');
    const granted = await exchange(flow.suite, writer, scene.userToken, [['scope', 'calendar:write']]);
    expect(granted.status).toBe(200);
    // The broader mode does not imply the narrower one (interface.md 5).
    const refused = await exchange(flow.suite, writer, scene.userToken, [['scope', 'calendar:read']]);
    expect({ status: refused.status, body: refused.body.error }).toEqual({
      status: 400,
      body: 'invalid_scope',
    });
    // Without a cap of modes, the registered scopes are the cap (docs/decisions.md #12).
    const uncapped = await registerAgent(flow.suite, { scope: 'calendar:read' });
    const outside = await exchange(flow.suite, uncapped, scene.userToken, [['scope', 'calendar:write']]);
    expect(outside.body.error).toBe('invalid_scope');
  });

  it('registers a cap only for an agent, and only within its registered scopes', async () => {
    const refusal = async (metadata: Record<string, unknown>) => {
      const response = await fetch(`${flow.suite.baseUrl}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_types: [TOKEN_EXCHANGE], response_types: [], ...metadata }),
      });
      return { status: response.status, body: await response.json() };
    };
    expect(await refusal({ scope: 'calendar:read', agent_scope_modes: 'calendar:read' })).toEqual({
      status: 400,
      body: describedError('invalid_client_metadata', 'agent_scope_modes requires is_agent'),
    });
    // Refused, not narrowed: an empty cap would fall back to every registered scope.
    expect(
      await refusal({ is_agent: true, scope: 'calendar:read', agent_scope_modes: 'calendar:write' }),
    ).toEqual({
      status: 400,
      body: describedError(
        'invalid_client_metadata',
        'agent_scope_modes must be among the registered scopes: calendar:write',
      ),
    });
  });

  it('refuses an audience or resource the subject token was not issued for', async () => {
    for (const name of ['audience', 'resource']) {
      const response = await exchange(flow.suite, scene.agent, scene.userToken, [
        [name, 'https://elsewhere.example'],
      ]);
      expect({ status: response.status, body: response.body }).toEqual({
        status: 400,
        body: describedError('invalid_target', 'The requested audience exceeds the subject token audience'),
      });
    }
  });
});

describe('token types and subject tokens (interface.md 4.3)', () => {
  it.each([
    [
      'an ID token subject type',
      [['subject_token_type', 'urn:ietf:params:oauth:token-type:id_token']],
      `subject_token_type must be ${ACCESS_TOKEN_TYPE}`,
    ],
    [
      'a refresh token subject type',
      [['subject_token_type', 'urn:ietf:params:oauth:token-type:refresh_token']],
      `subject_token_type must be ${ACCESS_TOKEN_TYPE}`,
    ],
    ['no subject type', [['subject_token_type', '']], 'subject_token_type is required'],
    [
      'a JWT actor type',
      [
        ['actor_token', 'x'],
        ['actor_token_type', 'urn:ietf:params:oauth:token-type:jwt'],
      ],
      `actor_token_type must be ${ACCESS_TOKEN_TYPE}`,
    ],
    [
      'an actor type alone',
      [['actor_token_type', ACCESS_TOKEN_TYPE]],
      'actor_token_type is sent only with actor_token',
    ],
    [
      'a refresh token requested',
      [['requested_token_type', 'urn:ietf:params:oauth:token-type:refresh_token']],
      'requested_token_type is not supported',
    ],
    [
      'an ID-JAG requested while the feature is off',
      [['requested_token_type', ID_JAG_TYPE]],
      'requested_token_type is not supported',
    ],
  ] as [string, [string, string][], string][])('refuses %s', async (_case, extra, description) => {
    const response = await exchange(flow.suite, scene.agent, scene.userToken, extra);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: describedError('invalid_request', description),
    });
  });

  it('refuses a subject token that is not one of our access tokens', async () => {
    for (const subject of ['not-a-token', withAlteredSignature(scene.userToken)]) {
      const response = await exchange(flow.suite, scene.agent, subject);
      expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: NOT_ACTIVE });
    }
  });

  it('refuses a revoked subject token', async () => {
    const subject = (await authorizedTokens(flow, scene.web, scene.user, { scope: 'calendar:read' }))
      .access_token as string;
    expect((await exchange(flow.suite, scene.agent, subject)).status).toBe(200);
    const revoked = await revoke(
      flow.suite,
      [['token', subject]],
      basicAuth(scene.web.clientId, scene.web.clientSecret!),
    );
    expect(revoked.status).toBe(200);
    const response = await exchange(flow.suite, scene.agent, subject);
    expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: NOT_ACTIVE });
  });

  it('refuses a token without a user (client_credentials)', async () => {
    const machine = await newAppClient(flow, {
      name: 'Backend',
      grantTypes: ['client_credentials'],
      responseTypes: [],
      redirectUris: [],
      scopes: ['calendar:read'],
    });
    const own = await tokenRequest(flow.suite, machine, [
      ['grant_type', 'client_credentials'],
      ['scope', 'calendar:read'],
    ]);
    const response = await exchange(flow.suite, scene.agent, own.body.access_token as string);
    expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: NOT_ACTIVE });
  });

  it("accepts the agent's own token as actor_token, and nothing else", async () => {
    const actor = await registerAgent(flow.suite, {
      grant_types: [TOKEN_EXCHANGE, 'client_credentials'],
      scope: 'calendar:read',
    });
    const own = await tokenRequest(flow.suite, actor, [['grant_type', 'client_credentials']]);
    const actorFields = (token: string): [string, string][] => [
      ['actor_token', token],
      ['actor_token_type', ACCESS_TOKEN_TYPE],
    ];
    const accepted = await exchange(
      flow.suite,
      actor,
      scene.userToken,
      actorFields(own.body.access_token as string),
    );
    expect(accepted.status).toBe(200);
    expect(claimsOf(accepted.body.access_token).act).toEqual({ sub: actor.clientId });
    const refused = await exchange(flow.suite, actor, scene.userToken, actorFields(scene.userToken));
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: describedError('invalid_request', 'The actor token is not valid for this client'),
    });
  });
});
