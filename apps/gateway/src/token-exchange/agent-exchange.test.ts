import { beforeAll, describe, expect, it } from 'vitest';
import {
  authorizedTokens,
  newAppClient,
  newUser,
  useCodeFlow,
  type AppClient,
  type TestUser,
} from '../authorize/flow-test-helpers.js';
import { revoke } from '../oauth/token-management-test-helpers.js';
import { basicAuth, requestToken, verifyAtJwks } from '../oauth/token-test-helpers.js';
import { metricValue } from '../test/metrics.js';
import {
  ACCESS_TOKEN_TYPE,
  auditEvents,
  claimsOf,
  describedError,
  exchange,
  ID_JAG_TYPE,
  introspectAs,
  JWT_BEARER,
  registerAgent,
  registerClient,
  TOKEN_EXCHANGE,
  tokenRequest,
} from './exchange-test-helpers.js';

// RFC 8693 agent delegation through the gateway (DECISIONS.md #12, spec 2.5, 4.3, 5,
// docs/agents.md): a user's token from another client's code flow, narrowed for an agent.
const SCOPES = 'openid profile email offline_access calendar:read calendar:write';
const flow = useCodeFlow(
  {},
  { DEFAULT_REALM_ALLOWED_SCOPES: SCOPES, DEFAULT_DYNAMIC_REGISTRATION_SCOPES: SCOPES },
);
const API = 'https://api.example/calendar';
const FILES = 'https://api.example/files';

let user: TestUser;
let web: AppClient;
let agent: AppClient;
/** The user's access token from web's code flow: aud web, every calendar scope. */
let userToken: string;

beforeAll(async () => {
  user = await newUser(flow);
  web = await newAppClient(flow, { scopes: ['openid', 'email', 'calendar:read', 'calendar:write'] });
  agent = await registerAgent(flow.suite, { scope: 'calendar:read calendar:write' });
  userToken = (
    await authorizedTokens(flow, web, user, { scope: 'openid email calendar:read calendar:write' })
  ).access_token as string;
});

const NOT_ACTIVE = describedError('invalid_request', 'The subject token is not active');

describe('agent token exchange: the happy path', () => {
  it('keeps sub, names the agent in act, narrows scope, never extends exp, issues no refresh token', async () => {
    const response = await exchange(flow.suite, agent, userToken, [['scope', 'calendar:read']]);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual({
      access_token: expect.any(String),
      issued_token_type: ACCESS_TOKEN_TYPE,
      token_type: 'Bearer',
      expires_in: expect.any(Number),
      scope: 'calendar:read',
    });
    const subject = claimsOf(userToken);
    const { payload, protectedHeader } = await verifyAtJwks(flow.suite, response.body.access_token as string);
    expect(protectedHeader.typ).toBe('at+jwt');
    expect(payload).toEqual({
      iss: flow.suite.baseUrl,
      sub: user.id,
      aud: web.clientId,
      client_id: agent.clientId,
      scope: 'calendar:read',
      email: user.email,
      email_verified: false,
      act: { sub: agent.clientId },
      iat: expect.any(Number),
      exp: subject.exp,
      jti: expect.any(String),
    });
    expect(response.body.expires_in).toBe(payload.exp! - payload.iat!);
    expect(response.body.expires_in).toBeLessThanOrEqual(900);
  });

  it('is reported with its act by introspection, to the audience and to the agent', async () => {
    const issued = await exchange(flow.suite, agent, userToken, [['scope', 'calendar:read']]);
    const token = issued.body.access_token as string;
    const claims = claimsOf(token);
    const expected = {
      active: true,
      sub: user.id,
      client_id: agent.clientId,
      scope: 'calendar:read',
      aud: web.clientId,
      iss: flow.suite.baseUrl,
      exp: claims.exp,
      iat: claims.iat,
      token_type: 'Bearer',
      act: { sub: agent.clientId },
    };
    expect(await introspectAs(flow.suite, web, token)).toEqual(expected);
    expect(await introspectAs(flow.suite, agent, token)).toEqual(expected);
  });

  it('grants no scope when none is asked for (DECISIONS.md #8)', async () => {
    const response = await exchange(flow.suite, agent, userToken);
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('scope');
    expect(claimsOf(response.body.access_token)).not.toHaveProperty('scope');
  });

  it('records the exchange in the audit log with the user, the actor chain and the client', async () => {
    const response = await exchange(flow.suite, agent, userToken, [['scope', 'calendar:write']]);
    const issued = claimsOf(response.body.access_token);
    const events = await auditEvents(flow.suite.oauthEnv.DATABASE_URL!, 'token_exchange');
    expect(events).toContainEqual({
      user_id: user.id,
      details: {
        clientId: agent.clientId,
        actorChain: [agent.clientId],
        subjectClientId: web.clientId,
        subjectJti: claimsOf(userToken).jti,
        jti: issued.jti,
      },
    });
  });

  it('is counted as an access token of the token-exchange grant', async () => {
    const count = async (type: string) =>
      metricValue(await (await fetch(`${flow.suite.baseUrl}/metrics`)).text(), 'tokens_issued_total', {
        type,
        grant: TOKEN_EXCHANGE,
      });
    const before = await count('access');
    expect((await exchange(flow.suite, agent, userToken)).status).toBe(200);
    expect(await count('access')).toBe(before + 1);
    expect(await count('refresh')).toBe(0);
  });

  it('narrows the audience to a resource the subject token was bound to', async () => {
    const tokens = await authorizedTokens(flow, web, user, {
      scope: 'calendar:read',
      extra: [
        ['resource', API],
        ['resource', FILES],
      ],
    });
    const subject = tokens.access_token as string;
    expect(claimsOf(subject).aud).toEqual([API, FILES]);
    const preserved = await exchange(flow.suite, agent, subject);
    expect(claimsOf(preserved.body.access_token).aud).toEqual([API, FILES]);
    const byResource = await exchange(flow.suite, agent, subject, [['resource', API]]);
    expect(claimsOf(byResource.body.access_token).aud).toBe(API);
    const byAudience = await exchange(flow.suite, agent, subject, [['audience', FILES]]);
    expect(claimsOf(byAudience.body.access_token).aud).toBe(FILES);
  });
});

describe('who may exchange (DECISIONS.md #12: agent-only, default-deny)', () => {
  it('refuses a client that is not an agent, even holding the grant', async () => {
    const client = await registerClient(flow.suite, {
      grant_types: [TOKEN_EXCHANGE],
      response_types: [],
      scope: 'calendar:read',
    });
    const response = await exchange(flow.suite, client, userToken, [['scope', 'calendar:read']]);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: describedError('unauthorized_client', 'Only agent clients may exchange tokens'),
    });
  });

  it('refuses an agent without the token-exchange grant', async () => {
    const client = await registerAgent(flow.suite, { grant_types: ['client_credentials'] });
    const response = await exchange(flow.suite, client, userToken);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: describedError('unauthorized_client', `The client may not use ${TOKEN_EXCHANGE}`),
    });
  });
});

describe('nothing widens', () => {
  it('refuses a scope the subject token does not have', async () => {
    const narrow = await authorizedTokens(flow, web, user, { scope: 'calendar:read' });
    const response = await exchange(flow.suite, agent, narrow.access_token as string, [
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
    const granted = await exchange(flow.suite, writer, userToken, [['scope', 'calendar:write']]);
    expect(granted.status).toBe(200);
    // The broader mode does not imply the narrower one (spec 5).
    const refused = await exchange(flow.suite, writer, userToken, [['scope', 'calendar:read']]);
    expect({ status: refused.status, body: refused.body.error }).toEqual({
      status: 400,
      body: 'invalid_scope',
    });
    // Without a cap of modes, the registered scopes are the cap (DECISIONS.md #12).
    const uncapped = await registerAgent(flow.suite, { scope: 'calendar:read' });
    const outside = await exchange(flow.suite, uncapped, userToken, [['scope', 'calendar:write']]);
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
      const response = await exchange(flow.suite, agent, userToken, [[name, 'https://elsewhere.example']]);
      expect({ status: response.status, body: response.body }).toEqual({
        status: 400,
        body: describedError('invalid_target', 'The requested audience exceeds the subject token audience'),
      });
    }
  });
});

describe('token types and subject tokens (spec 4.3)', () => {
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
    const response = await exchange(flow.suite, agent, userToken, extra);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: describedError('invalid_request', description),
    });
  });

  it('refuses a subject token that is not one of our access tokens', async () => {
    for (const subject of ['not-a-token', `${userToken.slice(0, -4)}AAAA`]) {
      const response = await exchange(flow.suite, agent, subject);
      expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: NOT_ACTIVE });
    }
  });

  it('refuses a revoked subject token', async () => {
    const subject = (await authorizedTokens(flow, web, user, { scope: 'calendar:read' }))
      .access_token as string;
    expect((await exchange(flow.suite, agent, subject)).status).toBe(200);
    const revoked = await revoke(
      flow.suite,
      [['token', subject]],
      basicAuth(web.clientId, web.clientSecret!),
    );
    expect(revoked.status).toBe(200);
    const response = await exchange(flow.suite, agent, subject);
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
    const response = await exchange(flow.suite, agent, own.body.access_token as string);
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
      userToken,
      actorFields(own.body.access_token as string),
    );
    expect(accepted.status).toBe(200);
    expect(claimsOf(accepted.body.access_token).act).toEqual({ sub: actor.clientId });
    const refused = await exchange(flow.suite, actor, userToken, actorFields(userToken));
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: describedError('invalid_request', 'The actor token is not valid for this client'),
    });
  });
});

describe('chained delegation (RFC 8693 section 4.1)', () => {
  it('nests the earlier actor under a second agent, narrowing further, and never drops act', async () => {
    const second = await registerAgent(flow.suite, { scope: 'calendar:read' });
    const first = await exchange(flow.suite, agent, userToken, [['scope', 'calendar:read calendar:write']]);
    const chained = await exchange(flow.suite, second, first.body.access_token as string, [
      ['scope', 'calendar:read'],
    ]);
    expect(chained.status).toBe(200);
    const token = chained.body.access_token as string;
    const claims = claimsOf(token);
    expect(claims).toMatchObject({
      sub: user.id,
      client_id: second.clientId,
      scope: 'calendar:read',
      act: { sub: second.clientId, act: { sub: agent.clientId } },
    });
    expect(claims.exp).toBeLessThanOrEqual(claimsOf(first.body.access_token).exp!);
    expect((await introspectAs(flow.suite, web, token)).act).toEqual({
      sub: second.clientId,
      act: { sub: agent.clientId },
    });
    const events = await auditEvents(flow.suite.oauthEnv.DATABASE_URL!, 'token_exchange');
    expect(events.at(-1)).toMatchObject({
      user_id: user.id,
      details: { clientId: second.clientId, actorChain: [second.clientId, agent.clientId] },
    });
    // The second agent may not widen what the first one was given.
    const wider = await exchange(flow.suite, second, chained.body.access_token as string, [
      ['scope', 'calendar:write'],
    ]);
    expect(wider.body.error).toBe('invalid_scope');
  });

  it('refuses a sixth actor (depth at most 5)', async () => {
    let token = userToken;
    for (let depth = 1; depth <= 5; depth += 1) {
      const response = await exchange(flow.suite, agent, token);
      expect(response.status).toBe(200);
      token = response.body.access_token as string;
    }
    const response = await exchange(flow.suite, agent, token);
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
      basicAuth(agent.clientId, agent.clientSecret!),
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
