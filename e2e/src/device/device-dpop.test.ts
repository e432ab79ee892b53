import * as oauth from 'oauth4webapi';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { clientCredentials, newUser, useCodeFlow, type AppClient } from '../support/code-flow.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import { basicAuth } from '../support/tokens.js';
import { introspect } from '../support/token-management.js';
import { dpopProof, newDpopKey, type DpopKey } from '../support/dpop-proof.js';
import { DEVICE_GRANT, decideOnPages, newDeviceClient, startDevice } from './device-scene.js';

/**
 * The device authorization grant (interface.md 4.13) meets DPoP (interface.md 4.12): the poll
 * that redeems the device code carries a proof, so the tokens are bound to the device's key
 * (RFC 9449 section 5 applies to every grant of the token endpoint).
 */
const flow = useCodeFlow({ DEVICE_CODE_ENTRY_RATE_LIMIT: '1000' });
const insecure = { [oauth.allowInsecureRequests]: true } as const;

interface Poll {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** One poll of the token endpoint with a hand-signed proof of `key` (when given). */
async function pollWithProof(
  client: AppClient,
  deviceCode: string,
  key?: DpopKey,
  nonce?: string,
): Promise<Poll> {
  const tokenUrl = `${flow.suite.baseUrl}/oauth/token`;
  const { fields, headers } = clientCredentials(client);
  const proof: Record<string, string> = key
    ? { dpop: await dpopProof(key, { method: 'POST', url: tokenUrl, nonce }) }
    : {};
  const response = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers, ...proof },
    body: new URLSearchParams([['grant_type', DEVICE_GRANT], ['device_code', deviceCode], ...fields]),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

describe('the device_code grant with DPoP (RFC 8628 section 3.4, RFC 9449 section 5)', () => {
  it('binds the tokens of the redeeming poll to the proof key; UserInfo takes them with a proof only', async () => {
    const client = await newDeviceClient(flow, { tokenEndpointAuthMethod: 'client_secret_basic' });
    const user = await newUser(flow, { verified: true });
    const key = await newDpopKey('ES256');
    const { device_code, user_code } = await startDevice(flow, client, 'openid email');
    await decideOnPages(flow, new FormBrowser(), user, user_code, 'allow');

    // RFC 9449 section 8: the first proof lacks the server's nonce; the challenge spends nothing.
    const challenged = await pollWithProof(client, device_code, key);
    expect({ status: challenged.status, body: challenged.body }).toEqual({
      status: 400,
      body: {
        error: 'use_dpop_nonce',
        error_description: expect.any(String),
        code: 'USE_DPOP_NONCE',
        statusCode: 400,
      },
    });
    const nonce = challenged.headers.get('dpop-nonce');
    expect(nonce).toMatch(/^[A-Za-z0-9_-]+$/);

    const tokens = await pollWithProof(client, device_code, key, nonce!);
    expect(tokens.status).toBe(200);
    expect(tokens.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      id_token: expect.any(String),
      expires_in: 900,
      token_type: 'DPoP',
      scope: 'openid email',
    });
    const accessToken = tokens.body.access_token as string;
    const claims = decodeJwt(accessToken);
    expect(claims).toMatchObject({ sub: user.id, client_id: client.clientId, cnf: { jkt: key.jkt } });

    const introspected = await introspect(
      flow.suite,
      [['token', accessToken]],
      basicAuth(client.clientId, client.clientSecret!),
    );
    expect(introspected.status).toBe(200);
    expect(introspected.body).toMatchObject({
      active: true,
      sub: user.id,
      client_id: client.clientId,
      scope: 'openid email',
      token_type: 'DPoP',
      cnf: { jkt: key.jkt },
    });

    // UserInfo through oauth4webapi's DPoP handle with the same key (RFC 9449 section 7).
    const issuer = new URL(flow.suite.baseUrl);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
    const rp: oauth.Client = { client_id: client.clientId };
    const DPoP = oauth.DPoP(rp, { privateKey: key.privateKey, publicKey: key.publicKey });
    const info = await oauth.processUserInfoResponse(
      as,
      rp,
      user.id,
      await oauth.userInfoRequest(as, rp, accessToken, { DPoP, ...insecure }),
    );
    expect(info).toEqual({ sub: user.id, email: user.email, email_verified: true });

    const asBearer = await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(asBearer.status).toBe(401);
    const description = 'The access token is DPoP-bound: send it with the DPoP scheme and a proof';
    expect(await asBearer.json()).toEqual({
      error: 'invalid_token',
      error_description: description,
      code: 'INVALID_TOKEN',
      statusCode: 401,
    });

    // Refreshing with a proof of the key keeps the binding (RFC 9449 section 5).
    const refreshUrl = `${flow.suite.baseUrl}/oauth/token`;
    const refreshWith = async (proofKey: DpopKey) =>
      fetch(refreshUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...basicAuth(client.clientId, client.clientSecret!),
          dpop: await dpopProof(proofKey, { method: 'POST', url: refreshUrl, nonce: nonce! }),
        },
        body: new URLSearchParams([
          ['grant_type', 'refresh_token'],
          ['refresh_token', tokens.body.refresh_token as string],
        ]),
      });
    const refreshed = await refreshWith(key);
    expect(refreshed.status).toBe(200);
    const refreshedBody = (await refreshed.json()) as Record<string, string>;
    expect(refreshedBody.token_type).toBe('DPoP');
    expect(decodeJwt(refreshedBody.access_token!)).toMatchObject({ cnf: { jkt: key.jkt } });
  });

  it('refuses a poll without a proof from a client registered dpopBoundAccessTokens, and keeps the grant', async () => {
    const client = await newDeviceClient(flow, { dpopBoundAccessTokens: true });
    expect(client.dpopBoundAccessTokens).toBe(true);
    const user = await newUser(flow);
    const key = await newDpopKey('EdDSA');
    const { device_code, user_code } = await startDevice(flow, client, 'openid');
    await decideOnPages(flow, new FormBrowser(), user, user_code, 'allow');

    const unproven = await pollWithProof(client, device_code);
    expect({ status: unproven.status, body: unproven.body }).toEqual({
      status: 400,
      body: {
        error: 'invalid_dpop_proof',
        error_description: 'This client must send a DPoP proof',
        code: 'INVALID_DPOP_PROOF',
        statusCode: 400,
      },
    });
    // The refusal did not spend the device code: the proven poll still redeems it.
    const challenged = await pollWithProof(client, device_code, key);
    expect(challenged.status).toBe(400);
    const tokens = await pollWithProof(client, device_code, key, challenged.headers.get('dpop-nonce')!);
    expect(tokens.status).toBe(200);
    expect(tokens.body.token_type).toBe('DPoP');
    expect(decodeJwt(tokens.body.access_token as string)).toMatchObject({ cnf: { jkt: key.jkt } });
  });
});
