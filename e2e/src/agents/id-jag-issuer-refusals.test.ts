import { describe, expect, it } from 'vitest';
import { authorizedTokens } from '../support/code-flow.js';
import {
  claimsOf,
  describedError,
  exchange,
  ID_JAG_TYPE,
  registerAgent,
  registerWebApp,
} from '../support/exchange-helpers.js';
import { OTHER_AS, useIdJagScene } from './id-jag-scene.js';

// ID-JAG between two servers (docs/enterprise-assertions.md; the scene of id-jag-scene.ts): the
// requests idp, the issuer, refuses.
const scene = await useIdJagScene();
const { idp, rs, requestIdJag } = scene;

describe('the issuer refuses', () => {
  it('a request without exactly one audience', async () => {
    for (const audiences of [[], [rs.suite.baseUrl, OTHER_AS]]) {
      const response = await exchange(idp.suite, scene.app, scene.aliceToken, [
        ['requested_token_type', ID_JAG_TYPE],
        ...audiences.map((audience): [string, string] => ['audience', audience]),
      ]);
      expect({ status: response.status, body: response.body }).toEqual({
        status: 400,
        body: describedError('invalid_request', 'Exactly one audience (the target issuer) is required'),
      });
    }
  });

  it('an audience the operator does not list in ENTERPRISE_ID_JAG_AUDIENCES', async () => {
    const response = await exchange(idp.suite, scene.app, scene.aliceToken, [
      ['requested_token_type', ID_JAG_TYPE],
      ['audience', 'https://victim-as.example'],
    ]);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: describedError('invalid_target', 'The audience is not an allowed target authorization server'),
    });
    // A listed target still works for the same client and token.
    expect((await requestIdJag(scene.app, scene.aliceToken)).status).toBe(200);
  });

  it("a delegated token: an agent's exchange is not laundered into an ID-JAG", async () => {
    // Anyone holding alice's token registers an agent openly and exchanges the token for one
    // naming the agent as client_id and actor (docs/agents.md).
    const agent = await registerAgent(idp.suite, { scope: 'calendar:read' });
    const delegated = await exchange(idp.suite, agent, scene.aliceToken, [['scope', 'calendar:read']]);
    expect(delegated.status).toBe(200);
    expect(claimsOf(delegated.body.access_token)).toMatchObject({
      client_id: agent.clientId,
      act: { sub: agent.clientId },
    });
    const laundered = await requestIdJag(agent, delegated.body.access_token as string, [
      ['scope', 'calendar:read'],
    ]);
    expect({ status: laundered.status, body: laundered.body }).toEqual({
      status: 400,
      body: describedError('invalid_request', 'A delegated subject token may not be exchanged for an ID-JAG'),
    });
  });

  it('a subject token issued to another client, or a scope it was not granted', async () => {
    const other = await registerWebApp(idp.suite, { scope: 'calendar:read' });
    const foreign = await requestIdJag(other, scene.aliceToken);
    expect({ status: foreign.status, body: foreign.body }).toEqual({
      status: 400,
      body: describedError('invalid_request', 'The subject token was issued to another client'),
    });
    const narrow = (await authorizedTokens(idp, scene.app, scene.alice, { scope: 'calendar:read' }))
      .access_token as string;
    const wider = await requestIdJag(scene.app, narrow, [['scope', 'calendar:write']]);
    expect(wider.body.error).toBe('invalid_scope');
  });

  it('a public client', async () => {
    const publicApp = await registerWebApp(idp.suite, { token_endpoint_auth_method: 'none' });
    const tokens = await authorizedTokens(idp, publicApp, scene.alice, { scope: 'openid' });
    const response = await requestIdJag(publicApp, tokens.access_token as string);
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: describedError('unauthorized_client', 'A public client may not obtain an ID-JAG'),
    });
  });
});
