import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AppClient,
  CODE_EXPIRED,
  completeAuthorization,
  INVALID_GRANT,
  newAppClient,
  newUser,
  redeemCode,
  REDIRECT_URI_MISMATCH,
  refresh,
  REFRESH_TOKEN_EXPIRED,
  useCodeFlow,
  clientCredentials,
} from '../support/code-flow.js';
import { requestToken } from '../support/tokens.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';

// docs/errors.md "What a client is told": the invalid_grant and invalid_token cases a client can
// act on say what went wrong; the ones that would help someone without the credential stay bare.
// Access tokens live 4 s here, so one can be seen to expire, while the developer token that
// creates the clients below outlives their creation on a loaded machine.
const flow = useCodeFlow({}, { ACCESS_TOKEN_TTL: '4' });
let sql: pg.Client;
// The developer token that creates clients expires with the others: every client up front.
let clients: AppClient[];

beforeAll(async () => {
  sql = new pg.Client({ connectionString: flow.databaseUrl });
  await sql.connect();
  clients = await Promise.all([1, 2, 3, 4].map(() => newAppClient(flow)));
});
afterAll(async () => {
  await sql?.end();
});

describe('invalid_grant at the token endpoint', () => {
  it('an expired code says so (after the verifier proved the caller holds it)', async () => {
    const client = clients[0]!;
    const result = await completeAuthorization(flow, new FormBrowser(), await newUser(flow), { client });
    await sql.query(
      `UPDATE oauth.authorization_codes SET expires_at = now() - interval '1 second' WHERE client_id = $1`,
      [client.clientId],
    );
    const wrongVerifier = await redeemCode(flow, client, result.code!, 'x'.repeat(43));
    expect(wrongVerifier.body).toEqual({
      ...INVALID_GRANT,
      error_description: 'code_verifier does not match the code_challenge',
    });
    const expired = await redeemCode(flow, client, result.code!, result.verifier);
    expect({ status: expired.status, body: expired.body }).toEqual({ status: 400, body: CODE_EXPIRED });
  });

  it('a redirect_uri other than the authorization request', async () => {
    const client = clients[1]!;
    const result = await completeAuthorization(flow, new FormBrowser(), await newUser(flow), { client });
    const { fields, headers } = clientCredentials(client);
    const answer = await requestToken(
      flow.suite,
      [
        ['grant_type', 'authorization_code'],
        ['code', result.code!],
        ['redirect_uri', 'https://app.example/other'],
        ['code_verifier', result.verifier],
        ...fields,
      ],
      headers,
    );
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: REDIRECT_URI_MISMATCH,
    });
  });

  it('an expired refresh token says so; an unknown one stays bare', async () => {
    const client = clients[2]!;
    const result = await completeAuthorization(flow, new FormBrowser(), await newUser(flow), { client });
    const tokens = await redeemCode(flow, client, result.code!, result.verifier);
    expect(tokens.status).toBe(200);
    await sql.query(
      `UPDATE oauth.refresh_tokens SET expires_at = now() - interval '1 second'
        WHERE family_id IN (SELECT id FROM oauth.refresh_token_families WHERE client_id = $1)`,
      [client.clientId],
    );
    const expired = await refresh(flow, client, tokens.body.refresh_token as string);
    expect({ status: expired.status, body: expired.body }).toEqual({
      status: 400,
      body: REFRESH_TOKEN_EXPIRED,
    });
    const unknown = await refresh(flow, client, 'c'.repeat(64));
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 400, body: INVALID_GRANT });
  });
});

describe('invalid_token at UserInfo (RFC 6750 section 3.1)', () => {
  it('an expired access token: the body and the challenge say it expired', async () => {
    const client = clients[3]!;
    const result = await completeAuthorization(flow, new FormBrowser(), await newUser(flow), { client });
    const tokens = await redeemCode(flow, client, result.code!, result.verifier);
    expect(tokens.body.expires_in).toBe(4);
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    const response = await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${tokens.body.access_token as string}` },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: 'invalid_token',
      error_description: 'The access token has expired',
      code: 'INVALID_TOKEN',
      statusCode: 401,
    });
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer realm="authz", error="invalid_token", error_description="The access token has expired", resource_metadata="${flow.suite.baseUrl}/.well-known/oauth-protected-resource"`,
    );
  });
});
