import { describe, expect, it } from 'vitest';
import { authorizedTokens } from '../support/code-flow.js';
import { verifyAtJwks } from '../support/tokens.js';
import { metricValue } from '../support/metrics.js';
import {
  ACCESS_TOKEN_TYPE,
  auditEvents,
  claimsOf,
  describedError,
  exchange,
  introspectAs,
  registerAgent,
  registerClient,
  TOKEN_EXCHANGE,
} from '../support/exchange-helpers.js';
import { API, FILES, useAgentScene } from './agent-exchange-scene.js';

// RFC 8693 agent delegation through the gateway: the happy path and who may exchange (docs/decisions.md
// #12, docs/agents.md); the scene is agent-exchange-scene.ts.
const scene = useAgentScene();
const { flow } = scene;

describe('agent token exchange: the happy path', () => {
  it('keeps sub, names the agent in act, narrows scope, never extends exp, issues no refresh token', async () => {
    const response = await exchange(flow.suite, scene.agent, scene.userToken, [['scope', 'calendar:read']]);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual({
      access_token: expect.any(String),
      issued_token_type: ACCESS_TOKEN_TYPE,
      token_type: 'Bearer',
      expires_in: expect.any(Number),
      scope: 'calendar:read',
    });
    const subject = claimsOf(scene.userToken);
    const { payload, protectedHeader } = await verifyAtJwks(flow.suite, response.body.access_token as string);
    expect(protectedHeader.typ).toBe('at+jwt');
    expect(payload).toEqual({
      iss: flow.suite.baseUrl,
      sub: scene.user.id,
      aud: scene.web.clientId,
      client_id: scene.agent.clientId,
      scope: 'calendar:read',
      email: scene.user.email,
      email_verified: false,
      act: { sub: scene.agent.clientId },
      iat: expect.any(Number),
      exp: subject.exp,
      jti: expect.any(String),
    });
    expect(response.body.expires_in).toBe(payload.exp! - payload.iat!);
    expect(response.body.expires_in).toBeLessThanOrEqual(900);
  });

  it('is reported with its act by introspection, to the audience and to the agent', async () => {
    const issued = await exchange(flow.suite, scene.agent, scene.userToken, [['scope', 'calendar:read']]);
    const token = issued.body.access_token as string;
    const claims = claimsOf(token);
    const expected = {
      active: true,
      sub: scene.user.id,
      client_id: scene.agent.clientId,
      scope: 'calendar:read',
      aud: scene.web.clientId,
      iss: flow.suite.baseUrl,
      exp: claims.exp,
      iat: claims.iat,
      token_type: 'Bearer',
      act: { sub: scene.agent.clientId },
    };
    expect(await introspectAs(flow.suite, scene.web, token)).toEqual(expected);
    expect(await introspectAs(flow.suite, scene.agent, token)).toEqual(expected);
  });

  it('grants no scope when none is asked for (docs/decisions.md #8)', async () => {
    const response = await exchange(flow.suite, scene.agent, scene.userToken);
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('scope');
    expect(claimsOf(response.body.access_token)).not.toHaveProperty('scope');
  });

  it('records the exchange in the audit log with the user, the actor chain and the client', async () => {
    const response = await exchange(flow.suite, scene.agent, scene.userToken, [['scope', 'calendar:write']]);
    const issued = claimsOf(response.body.access_token);
    const events = await auditEvents(flow.suite.oauthEnv.DATABASE_URL!, 'token_exchange');
    expect(events).toContainEqual({
      user_id: scene.user.id,
      details: {
        clientId: scene.agent.clientId,
        actorChain: [scene.agent.clientId],
        subjectClientId: scene.web.clientId,
        subjectJti: claimsOf(scene.userToken).jti,
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
    expect((await exchange(flow.suite, scene.agent, scene.userToken)).status).toBe(200);
    expect(await count('access')).toBe(before + 1);
    expect(await count('refresh')).toBe(0);
  });

  it('narrows the audience to a resource the subject token was bound to', async () => {
    const tokens = await authorizedTokens(flow, scene.web, scene.user, {
      scope: 'calendar:read',
      extra: [
        ['resource', API],
        ['resource', FILES],
      ],
    });
    const subject = tokens.access_token as string;
    expect(claimsOf(subject).aud).toEqual([API, FILES]);
    const preserved = await exchange(flow.suite, scene.agent, subject);
    expect(claimsOf(preserved.body.access_token).aud).toEqual([API, FILES]);
    const byResource = await exchange(flow.suite, scene.agent, subject, [['resource', API]]);
    expect(claimsOf(byResource.body.access_token).aud).toBe(API);
    const byAudience = await exchange(flow.suite, scene.agent, subject, [['audience', FILES]]);
    expect(claimsOf(byAudience.body.access_token).aud).toBe(FILES);
  });
});

describe('who may exchange (docs/decisions.md #12: agent-only, default-deny)', () => {
  it('refuses a client that is not an agent, even holding the grant', async () => {
    const client = await registerClient(flow.suite, {
      grant_types: [TOKEN_EXCHANGE],
      response_types: [],
      scope: 'calendar:read',
    });
    const response = await exchange(flow.suite, client, scene.userToken, [['scope', 'calendar:read']]);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: describedError('unauthorized_client', 'Only agent clients may exchange tokens'),
    });
  });

  it('refuses an agent without the token-exchange grant', async () => {
    const client = await registerAgent(flow.suite, { grant_types: ['client_credentials'] });
    const response = await exchange(flow.suite, client, scene.userToken);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: describedError('unauthorized_client', `The client may not use ${TOKEN_EXCHANGE}`),
    });
  });
});
