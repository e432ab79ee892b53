import * as oidc from 'openid-client';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { authorizedTokens, newAppClient, newUser, useCodeFlow } from '../support/code-flow.js';
import { call } from '../support/clients.js';

/**
 * RFC 9449 with RFC 8693 (interface.md 4.12): an agent exchanges a user's token with a DPoP proof
 * through openid-client, which answers the nonce challenge by itself, and uses the DPoP-bound
 * result at UserInfo.
 */
const flow = useCodeFlow();
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

describe('DPoP-bound token exchange', () => {
  it('issues a DPoP token for the agent, usable at UserInfo with its proofs only', async () => {
    const user = await newUser(flow, { verified: true });
    const app = await newAppClient(flow);
    const subject = await authorizedTokens(flow, app, user, { scope: 'openid email' });
    const registered = await call<Record<string, string>>(flow.suite, 'POST', '/oauth/register', {
      body: {
        client_name: 'Mail agent',
        grant_types: [TOKEN_EXCHANGE],
        response_types: [],
        is_agent: true,
        scope: 'openid email',
        token_endpoint_auth_method: 'client_secret_basic',
      },
    });
    expect(registered.status).toBe(201);
    const config = await oidc.discovery(
      new URL(flow.suite.baseUrl),
      registered.body.client_id!,
      {},
      oidc.ClientSecretBasic(registered.body.client_secret!),
      { execute: [oidc.allowInsecureRequests] },
    );
    const keyPair = await oidc.randomDPoPKeyPair('ES256');
    const DPoP = oidc.getDPoPHandle(config, keyPair);

    const exchanged = await oidc.genericGrantRequest(
      config,
      TOKEN_EXCHANGE,
      {
        subject_token: subject.access_token as string,
        subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        scope: 'openid email',
      },
      { DPoP },
    );
    expect(exchanged.token_type).toBe('dpop');
    expect(exchanged.issued_token_type).toBe('urn:ietf:params:oauth:token-type:access_token');
    const claims = decodeJwt(exchanged.access_token);
    expect(claims).toMatchObject({ sub: user.id, act: { sub: registered.body.client_id } });
    expect(claims.cnf).toEqual({ jkt: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });

    const info = await oidc.fetchUserInfo(config, exchanged.access_token, user.id, { DPoP });
    expect(info).toEqual({ sub: user.id, email: user.email, email_verified: true });
    const otherKey = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
    const refused = await oidc
      .fetchUserInfo(config, exchanged.access_token, user.id, { DPoP: otherKey })
      .catch((error: unknown) => error);
    // RFC 9449 section 7.1: 401 with a DPoP challenge naming invalid_dpop_proof.
    expect(refused).toMatchObject({
      status: 401,
      cause: [{ scheme: 'dpop', parameters: { error: 'invalid_dpop_proof' } }],
    });
  });
});
