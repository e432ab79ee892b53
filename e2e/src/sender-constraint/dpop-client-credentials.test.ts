import * as oauth from 'oauth4webapi';
import { calculateJwkThumbprint, decodeJwt, exportJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { useCodeFlow } from '../support/code-flow.js';
import { basicAuth, machineClient, newClient } from '../support/tokens.js';
import { introspect } from '../support/token-management.js';

const flow = useCodeFlow();
const insecure = { [oauth.allowInsecureRequests]: true } as const;

async function authorizationServer(): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(flow.suite.baseUrl);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
}

/** RFC 9449 section 8: the first proof lacks the server's nonce, the retry carries it. */
async function clientCredentialsWithDpop(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  secret: string,
  DPoP: oauth.DPoPHandle,
  scope = '',
): Promise<{ tokens: oauth.TokenEndpointResponse; challenged: boolean }> {
  const parameters = new URLSearchParams(scope ? { scope } : {});
  const request = () =>
    oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic(secret), parameters, {
      DPoP,
      ...insecure,
    });
  try {
    return {
      tokens: await oauth.processClientCredentialsResponse(as, client, await request()),
      challenged: false,
    };
  } catch (error) {
    if (!oauth.isDPoPNonceError(error)) throw error;
    return {
      tokens: await oauth.processClientCredentialsResponse(as, client, await request()),
      challenged: true,
    };
  }
}

describe('DPoP-bound client_credentials tokens (RFC 9449, interface.md 4.12)', () => {
  it('answers the nonce challenge, binds the token to the key and introspects it as DPoP', async () => {
    const created = await newClient(flow.suite, flow.developer, machineClient);
    const as = await authorizationServer();
    const client: oauth.Client = { client_id: created.clientId };
    const keyPair = await oauth.generateKeyPair('ES256');
    const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey), 'sha256');

    const { tokens, challenged } = await clientCredentialsWithDpop(
      as,
      client,
      created.clientSecret!,
      oauth.DPoP(client, keyPair),
    );
    expect(challenged).toBe(true);
    expect(tokens.token_type).toBe('dpop');
    expect(decodeJwt(tokens.access_token)).toMatchObject({ cnf: { jkt }, sub: created.clientId });

    const introspected = await introspect(
      flow.suite,
      [['token', tokens.access_token]],
      basicAuth(created.clientId, created.clientSecret!),
    );
    expect(introspected.status).toBe(200);
    const claims = decodeJwt(tokens.access_token);
    expect(introspected.body).toEqual({
      active: true,
      sub: created.clientId,
      client_id: created.clientId,
      aud: created.clientId,
      iss: flow.suite.baseUrl,
      exp: claims.exp,
      iat: claims.iat,
      token_type: 'DPoP',
      cnf: { jkt },
    });
  });

  it('is used at UserInfo with a proof and refused as Bearer', async () => {
    const created = await newClient(flow.suite, flow.developer, { ...machineClient, scopes: ['openid'] });
    const as = await authorizationServer();
    const client: oauth.Client = { client_id: created.clientId };
    const DPoP = oauth.DPoP(client, await oauth.generateKeyPair('EdDSA'));
    const { tokens } = await clientCredentialsWithDpop(as, client, created.clientSecret!, DPoP, 'openid');

    // With its proof the token passes every DPoP check; a client has no user, so UserInfo then
    // refuses it for the scope it lacks: proof, ath and binding were accepted.
    const withProof = await oauth.userInfoRequest(as, client, tokens.access_token, { DPoP, ...insecure });
    expect(withProof.status).toBe(401);
    expect(await withProof.json()).toEqual({
      error: 'invalid_token',
      code: 'INVALID_TOKEN',
      statusCode: 401,
    });
    expect(withProof.headers.get('www-authenticate')).toBe(
      'DPoP realm="authz", error="invalid_token", algs="EdDSA Ed25519 ES256 RS256 PS256"',
    );

    const asBearer = await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(asBearer.status).toBe(401);
    const description = 'The access token is DPoP-bound: send it with the DPoP scheme and a proof';
    expect(await asBearer.json()).toEqual({
      error: 'invalid_token',
      error_description: description,
      code: 'INVALID_TOKEN',
      statusCode: 401,
    });
    expect(asBearer.headers.get('www-authenticate')).toBe(
      `DPoP realm="authz", error="invalid_token", error_description="${description}", algs="EdDSA Ed25519 ES256 RS256 PS256"`,
    );
  });
});
