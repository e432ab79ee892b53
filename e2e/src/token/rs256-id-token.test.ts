import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { call, createClient, validationError } from '../support/clients.js';
import {
  completeAuthorization,
  newAppClient,
  newPkce,
  newUser,
  REDIRECT_URI,
  useCodeFlow,
  type AppClient,
} from '../support/code-flow.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';

// docs/tokens.md #34: a client registered with id_token_signed_response_alg RS256 gets RS256 ID
// tokens, which a relying party library configured for RS256 verifies against the JWKS; its
// access tokens stay EdDSA (docs/decisions.md #11).
const flow = useCodeFlow();

interface Jwk {
  kid: string;
  kty: string;
  alg: string;
}

async function publishedKeys(): Promise<Jwk[]> {
  const response = await fetch(`${flow.suite.baseUrl}/.well-known/jwks.json`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { keys: Jwk[] }).keys;
}

/** openid-client as a relying party configured with `alg` for ID tokens (OIDC Dynamic Registration 2). */
function relyingParty(client: AppClient, alg: string): Promise<oidc.Configuration> {
  return oidc.discovery(
    new URL(flow.suite.baseUrl),
    client.clientId,
    { id_token_signed_response_alg: alg },
    oidc.ClientSecretBasic(client.clientSecret!),
    // The test issuer is http on loopback.
    { execute: [oidc.allowInsecureRequests] },
  );
}

/** Signs a fresh user in at `client` and redeems the code with openid-client. */
async function signIn(client: AppClient, config: oidc.Configuration) {
  const user = await newUser(flow);
  const pkce = newPkce();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const browser = new FormBrowser();
  const result = await completeAuthorization(flow, browser, user, { client, pkce, state, nonce });
  expect(result.callback.href.startsWith(`${REDIRECT_URI}?`)).toBe(true);
  const redeem = () =>
    oidc.authorizationCodeGrant(config, result.callback, {
      pkceCodeVerifier: pkce.verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
  return { user, browser, redeem };
}

describe('RS256 ID tokens for relying parties that need them', () => {
  it('an openid-client relying party registered for RS256 completes a code flow', async () => {
    const client = await newAppClient(flow, { idTokenSignedResponseAlg: 'RS256' });
    expect(client.idTokenSignedResponseAlg).toBe('RS256');
    const config = await relyingParty(client, 'RS256');
    expect(config.serverMetadata().id_token_signing_alg_values_supported).toEqual(['EdDSA', 'RS256']);

    const { user, redeem } = await signIn(client, config);
    const tokens = await redeem();
    expect(tokens.claims()).toMatchObject({ sub: user.id, aud: client.clientId, iss: flow.suite.baseUrl });

    const idHeader = decodeProtectedHeader(tokens.id_token!);
    expect(idHeader).toEqual({ alg: 'RS256', typ: 'JWT', kid: expect.any(String) });
    const keys = await publishedKeys();
    expect(keys.find((key) => key.kid === idHeader.kid)).toMatchObject({ kty: 'RSA', alg: 'RS256' });
    const jwks = createRemoteJWKSet(new URL(`${flow.suite.baseUrl}/.well-known/jwks.json`));
    await expect(
      jwtVerify(tokens.id_token!, jwks, {
        algorithms: ['RS256'],
        issuer: flow.suite.baseUrl,
        audience: client.clientId,
      }),
    ).resolves.toBeTruthy();

    // The access token is EdDSA, with an Ed25519 key; it still works at UserInfo.
    const accessHeader = decodeProtectedHeader(tokens.access_token);
    expect(accessHeader.alg).toBe('EdDSA');
    expect(keys.find((key) => key.kid === accessHeader.kid)).toMatchObject({ kty: 'OKP', alg: 'EdDSA' });
    const userInfo = await oidc.fetchUserInfo(config, tokens.access_token, user.id);
    expect(userInfo.sub).toBe(user.id);
  });

  it('signs ID tokens with EdDSA for a client that did not ask for RS256', async () => {
    const client = await newAppClient(flow);
    expect(client.idTokenSignedResponseAlg).toBe('EdDSA');
    // A relying party expecting RS256 refuses the EdDSA ID token (OIDC Core 3.1.3.7 step 7).
    const expectingRs256 = await signIn(client, await relyingParty(client, 'RS256'));
    const refused = (await expectingRs256.redeem().catch((error: unknown) => error)) as Error;
    expect(refused).toBeInstanceOf(Error);
    expect(String((refused.cause as Error | undefined)?.message)).toMatch(/"alg"/);
    const expectingEdDsa = await signIn(client, await relyingParty(client, 'EdDSA'));
    const tokens = await expectingEdDsa.redeem();
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('EdDSA');
  });

  it('takes an RS256 ID token as id_token_hint at RP-initiated logout (interface.md 4.3)', async () => {
    const loggedOut = 'https://app.example/logged-out';
    const client = await newAppClient(flow, {
      idTokenSignedResponseAlg: 'RS256',
      postLogoutRedirectUris: [loggedOut],
    });
    const config = await relyingParty(client, 'RS256');
    const { browser, redeem } = await signIn(client, config);
    const tokens = await redeem();
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('RS256');
    const url = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: loggedOut,
      state: 'rs256-logout',
    });
    const response = await browser.get(url.href);
    expect(response.status).toBe(302);
    expect(response.location).toBe(`${loggedOut}?state=rs256-logout`);
  });

  it('refuses any other algorithm in the developer API and in dynamic registration', async () => {
    for (const alg of ['HS256', 'none', 'ES256', 'rs256']) {
      const created = await createClient(flow.suite, flow.developer, {
        name: 'Bad alg app',
        redirectUris: [REDIRECT_URI],
        idTokenSignedResponseAlg: alg,
      });
      expect({ alg, status: created.status, body: created.body }).toEqual({
        alg,
        status: 400,
        body: validationError([{ path: 'idTokenSignedResponseAlg', message: 'must be one of EdDSA, RS256' }]),
      });
      const registered = await call(flow.suite, 'POST', '/oauth/register', {
        body: {
          redirect_uris: [REDIRECT_URI],
          token_endpoint_auth_method: 'none',
          id_token_signed_response_alg: alg,
        },
      });
      expect({ alg, body: registered.body }).toEqual({
        alg,
        body: {
          error: 'invalid_client_metadata',
          error_description: 'id_token_signed_response_alg: must be one of EdDSA, RS256',
          code: 'INVALID_CLIENT_METADATA',
          statusCode: 400,
        },
      });
    }
    const rs256 = await call(flow.suite, 'POST', '/oauth/register', {
      body: {
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'none',
        id_token_signed_response_alg: 'RS256',
      },
    });
    expect(rs256.status).toBe(201);
    expect(rs256.body.id_token_signed_response_alg).toBe('RS256');
    const plain = await call(flow.suite, 'POST', '/oauth/register', {
      body: { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' },
    });
    expect(plain.status).toBe(201);
    expect(plain.body).not.toHaveProperty('id_token_signed_response_alg');
  });
});
