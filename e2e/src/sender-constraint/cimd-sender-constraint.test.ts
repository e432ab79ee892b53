import { randomUUID } from 'node:crypto';
import { TestDocumentServer } from '@authz/shared/testing';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizationParameters,
  completeAuthorization,
  newPkce,
  newUser,
  REDIRECT_URI,
  useCodeFlow,
  type AppClient,
} from '../support/code-flow.js';
import { pageText, FormBrowser } from '@authz/shared/testing/form-browser';
import { dpopProof, newDpopKey } from '../support/dpop-proof.js';

/**
 * Client ID metadata documents (interface.md 7) meet PAR and DPoP (interface.md 4.12): a
 * document's require_pushed_authorization_requests and dpop_bound_access_tokens bind the client
 * as the same fields of a registered client do (RFC 9126 section 6, RFC 9449 section 5.2).
 */
const flow = useCodeFlow({}, { CIMD_ENABLED: 'true', CIMD_ALLOW_INSECURE_LOOPBACK: 'true' });
let documents: TestDocumentServer;

beforeAll(async () => {
  documents = await TestDocumentServer.start();
});
afterAll(() => documents.close());

function publishStrictApp(): AppClient {
  const path = `/apps/${randomUUID()}/client.json`;
  const clientId = documents.url(path);
  documents.serve(path, {
    body: {
      client_id: clientId,
      client_name: 'Strict notes',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
      scope: 'openid email',
      require_pushed_authorization_requests: true,
      dpop_bound_access_tokens: true,
    },
  });
  return { clientId, confidential: false } as AppClient;
}

describe('a client ID metadata document with require_pushed_authorization_requests and dpop_bound_access_tokens', () => {
  it('refuses a request that was not pushed, and a token request without a proof', async () => {
    const client = publishStrictApp();
    const base = flow.suite.baseUrl;
    const pkce = newPkce();
    const parameters = authorizationParameters({ client, pkce });

    // A cimd client's errors are never redirected (docs/authorization.md #19, docs/par-and-dpop.md).
    const plain = await new FormBrowser().get(`${base}/oauth/authorize?${new URLSearchParams(parameters)}`);
    expect(plain.status).toBe(400);
    expect(plain.location).toBeUndefined();
    expect(pageText(plain.text)).toContain(
      'Error: invalid_request Pushed authorization requests are required: push the request to /oauth/par first',
    );

    const pushed = await fetch(`${base}/oauth/par`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(parameters),
    });
    expect(pushed.status).toBe(201);
    const { request_uri } = (await pushed.json()) as { request_uri: string };
    const user = await newUser(flow, { verified: true });
    const result = await completeAuthorization(
      flow,
      new FormBrowser(),
      user,
      { client, pkce },
      {
        startUrl: `${base}/oauth/authorize?${new URLSearchParams({ client_id: client.clientId, request_uri })}`,
      },
    );
    expect(result.code).toEqual(expect.any(String));

    const tokenUrl = `${base}/oauth/token`;
    const fields = new URLSearchParams([
      ['grant_type', 'authorization_code'],
      ['code', result.code!],
      ['redirect_uri', REDIRECT_URI],
      ['code_verifier', pkce.verifier],
      ['client_id', client.clientId],
    ]);
    const post = (headers: Record<string, string> = {}) =>
      fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: fields,
      });

    const unproven = await post();
    expect(unproven.status).toBe(400);
    expect(await unproven.json()).toEqual({
      error: 'invalid_dpop_proof',
      error_description: 'This client must send a DPoP proof',
      code: 'INVALID_DPOP_PROOF',
      statusCode: 400,
    });

    // The refusal left the code unspent: the proven request redeems it (RFC 9449 section 8 nonce first).
    const key = await newDpopKey('ES256');
    const challenge = await post({ dpop: await dpopProof(key, { method: 'POST', url: tokenUrl }) });
    expect(challenge.status).toBe(400);
    expect(await challenge.json()).toMatchObject({ error: 'use_dpop_nonce' });
    const nonce = challenge.headers.get('dpop-nonce')!;
    const redeemed = await post({ dpop: await dpopProof(key, { method: 'POST', url: tokenUrl, nonce }) });
    expect(redeemed.status).toBe(200);
    const tokens = (await redeemed.json()) as Record<string, string>;
    expect(tokens.token_type).toBe('DPoP');
    expect(decodeJwt(tokens.access_token!)).toMatchObject({
      sub: user.id,
      client_id: client.clientId,
      cnf: { jkt: key.jkt },
    });
  });
});
