import * as oauth from 'oauth4webapi';
import { calculateJwkThumbprint, decodeJwt, exportJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  completeAuthorization,
  newAppClient,
  newPkce,
  newUser,
  REDIRECT_URI,
  useCodeFlow,
  type AppClient,
} from '../support/code-flow.js';
import { requestToken } from '../support/tokens.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import { dpopProof, newDpopKey } from '../support/dpop-proof.js';

/**
 * RFC 9449 with the authorization code grant (interface.md 4.12): a public client pushes its
 * request with a proof (the code is bound to its key), redeems the code and refreshes with
 * oauth4webapi's DPoP handle, and uses the tokens at UserInfo.
 */
const flow = useCodeFlow();
const insecure = { [oauth.allowInsecureRequests]: true } as const;

async function authorizationServer(): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(flow.suite.baseUrl);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
}

/** RFC 9449 section 8: oauth4webapi learns the nonce from the challenge; the caller retries once. */
async function withNonceRetry<T>(attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!oauth.isDPoPNonceError(error)) throw error;
    return attempt();
  }
}

const publicClient = (flowClient: AppClient): oauth.Client => ({
  client_id: flowClient.clientId,
  id_token_signed_response_alg: 'EdDSA',
});

describe('DPoP with the authorization code grant (RFC 9449 sections 5, 10)', () => {
  it('binds code, access and refresh tokens to the key of a public client and uses them at UserInfo', async () => {
    const app = await newAppClient(flow, {
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code', 'refresh_token'],
    });
    const user = await newUser(flow, { verified: true });
    const as = await authorizationServer();
    const client = publicClient(app);
    const keyPair = await oauth.generateKeyPair('ES256');
    const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey), 'sha256');
    const DPoP = oauth.DPoP(client, keyPair);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const parameters = new URLSearchParams({
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      scope: 'openid email offline_access',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });

    // RFC 9449 section 10.1: the proof at PAR binds the code to the key.
    const pushed = await withNonceRetry(async () =>
      oauth.processPushedAuthorizationResponse(
        as,
        client,
        await oauth.pushedAuthorizationRequest(as, client, oauth.None(), parameters, { DPoP, ...insecure }),
      ),
    );
    const start = `${flow.suite.baseUrl}/oauth/authorize?${new URLSearchParams({ client_id: client.client_id, request_uri: pushed.request_uri })}`;
    const result = await completeAuthorization(
      flow,
      new FormBrowser(),
      user,
      { client: app },
      { startUrl: start },
    );

    // Without a proof of that key the code is refused, and stays unspent.
    const unproven = await requestToken(flow.suite, [
      ['grant_type', 'authorization_code'],
      ['code', result.code!],
      ['redirect_uri', REDIRECT_URI],
      ['code_verifier', verifier],
      ['client_id', client.client_id],
    ]);
    expect(unproven.status).toBe(400);
    expect(unproven.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The DPoP proof key is not the dpop_jkt of the authorization request',
      code: 'INVALID_GRANT',
      statusCode: 400,
    });

    const callback = oauth.validateAuthResponse(as, client, result.callback, state);
    const tokens = await withNonceRetry(async () =>
      oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(
          as,
          client,
          oauth.None(),
          callback,
          REDIRECT_URI,
          verifier,
          {
            DPoP,
            ...insecure,
          },
        ),
        { expectedNonce: nonce, requireIdToken: true },
      ),
    );
    expect(tokens.token_type).toBe('dpop');
    expect(decodeJwt(tokens.access_token)).toMatchObject({ sub: user.id, cnf: { jkt } });

    const info = await oauth.processUserInfoResponse(
      as,
      client,
      user.id,
      await oauth.userInfoRequest(as, client, tokens.access_token, { DPoP, ...insecure }),
    );
    expect(info).toEqual({ sub: user.id, email: user.email, email_verified: true });
    const asBearer = await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(asBearer.status).toBe(401);
    expect((await asBearer.json()) as object).toMatchObject({ error: 'invalid_token' });

    // RFC 9449 section 5: the public client's refresh token needs a proof of the same key.
    const otherKey = oauth.DPoP(client, await oauth.generateKeyPair('ES256'));
    const stolen = await withNonceRetry(async () =>
      oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, {
          DPoP: otherKey,
          ...insecure,
        }),
      ),
    ).catch((error: unknown) => error);
    expect(stolen).toBeInstanceOf(oauth.ResponseBodyError);
    expect((stolen as oauth.ResponseBodyError).cause).toEqual({
      error: 'invalid_grant',
      error_description: 'The refresh token is bound to another DPoP key',
      code: 'INVALID_GRANT',
      statusCode: 400,
    });

    const refreshed = await withNonceRetry(async () =>
      oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, {
          DPoP,
          ...insecure,
        }),
      ),
    );
    expect(refreshed.token_type).toBe('dpop');
    expect(decodeJwt(refreshed.access_token)).toMatchObject({ cnf: { jkt } });
    const again = await oauth.userInfoRequest(as, client, refreshed.access_token, { DPoP, ...insecure });
    expect(again.status).toBe(200);
  });

  it('binds a code to dpop_jkt sent at /oauth/authorize', async () => {
    const app = await newAppClient(flow);
    const user = await newUser(flow, { verified: true });
    const key = await newDpopKey('PS256');
    const pkce = newPkce();
    const result = await completeAuthorization(flow, new FormBrowser(), user, {
      client: app,
      pkce,
      extra: [['dpop_jkt', key.jkt]],
    });
    const tokenUrl = `${flow.suite.baseUrl}/oauth/token`;
    const fields = new URLSearchParams([
      ['grant_type', 'authorization_code'],
      ['code', result.code!],
      ['redirect_uri', REDIRECT_URI],
      ['code_verifier', pkce.verifier],
    ]);
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`,
    };
    const challenge = await fetch(tokenUrl, {
      method: 'POST',
      headers: { ...headers, dpop: await dpopProof(key, { method: 'POST', url: tokenUrl }) },
      body: fields,
    });
    expect(challenge.status).toBe(400);
    const nonce = challenge.headers.get('dpop-nonce')!;
    const redeemed = await fetch(tokenUrl, {
      method: 'POST',
      headers: { ...headers, dpop: await dpopProof(key, { method: 'POST', url: tokenUrl, nonce }) },
      body: fields,
    });
    expect(redeemed.status).toBe(200);
    const body = (await redeemed.json()) as Record<string, string>;
    expect(body.token_type).toBe('DPoP');
    expect(decodeJwt(body.access_token!)).toMatchObject({ cnf: { jkt: key.jkt } });
  });
});
