import { describe, expect, it } from 'vitest';
import { UNAUTHORIZED } from '../support/clients.js';
import { revoke } from '../support/token-management.js';
import { bearerChallenge } from '../support/http.js';
import {
  authorizedTokens,
  clientCredentials,
  newAppClient,
  newUser,
  useCodeFlow,
  verifyEmail,
} from '../support/code-flow.js';

// OIDC Core 5.3 and interface.md 4.3 through the gateway: what UserInfo tells a client, and how it
// refuses (RFC 6750 sections 2 and 3, RFC 9728 section 5.1).
const flow = useCodeFlow();

interface UserInfoAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function userInfo(init: RequestInit & { method?: 'GET' | 'POST' } = {}): Promise<UserInfoAnswer> {
  const response = await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, init);
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

const withBearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const postForm = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: 'POST' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(fields).toString(),
});

/** RFC 6750 section 3 with the RFC 9728 pointer every Bearer challenge of this server carries. */
const challenge = (error: string, description?: string) =>
  `Bearer realm="authz", error="${error}"${description ? `, error_description="${description}"` : ''}, resource_metadata="${flow.suite.baseUrl}/.well-known/oauth-protected-resource"`;

async function accessToken(scope: string, verified: boolean) {
  const user = await newUser(flow, { verified });
  const tokens = await authorizedTokens(flow, await newAppClient(flow), user, { scope });
  return { user, token: tokens.access_token as string };
}

describe('claims (interface.md 4.3)', () => {
  it('sub, and the verified email under the email scope; no-store and CORS', async () => {
    const { user, token } = await accessToken('openid email', true);
    const answer = await userInfo(withBearer(token));
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 200,
      body: { sub: user.id, email: user.email, email_verified: true },
    });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('no email before it is verified (never null), and the same token shows it once verified', async () => {
    const { user, token } = await accessToken('openid email', false);
    expect((await userInfo(withBearer(token))).body).toEqual({ sub: user.id });
    await verifyEmail(flow, user.email);
    expect((await userInfo(withBearer(token))).body).toEqual({
      sub: user.id,
      email: user.email,
      email_verified: true,
    });
  });

  it('no email without the email scope, verified or not', async () => {
    const { user, token } = await accessToken('openid profile', true);
    expect((await userInfo(withBearer(token))).body).toEqual({ sub: user.id });
  });

  it('POST: the Authorization header or the access_token form field (RFC 6750 2.1, 2.2)', async () => {
    const { user, token } = await accessToken('openid', false);
    expect(await userInfo({ method: 'POST', ...withBearer(token) })).toMatchObject({
      status: 200,
      body: { sub: user.id },
    });
    expect(await userInfo(postForm({ access_token: token }))).toMatchObject({
      status: 200,
      body: { sub: user.id },
    });
  });
});

describe('refusals (RFC 6750 section 3)', () => {
  it('no token: 401 with a challenge that names no error (3.1)', async () => {
    for (const init of [{}, postForm({}), { headers: { authorization: 'Basic YTpi' } }]) {
      const answer = await userInfo(init);
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 401, body: UNAUTHORIZED });
      expect(answer.headers.get('www-authenticate')).toBe(bearerChallenge(flow.suite.baseUrl));
    }
  });

  it('a revoked token: 401 invalid_token', async () => {
    const user = await newUser(flow);
    const client = await newAppClient(flow);
    const tokens = await authorizedTokens(flow, client, user, { scope: 'openid' });
    const token = tokens.access_token as string;
    const { fields, headers } = clientCredentials(client);
    expect((await revoke(flow.suite, [['token', token], ...fields], headers)).status).toBe(200);

    const answer = await userInfo(withBearer(token));
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(
      challenge('invalid_token', 'The access token has been revoked'),
    );
    expect(answer.body).toEqual({
      error: 'invalid_token',
      error_description: 'The access token has been revoked',
      code: 'INVALID_TOKEN',
      statusCode: 401,
    });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('a token that is not ours: 401 invalid_token', async () => {
    const answer = await userInfo(withBearer('eyJhbGciOiJFZERTQSJ9.e30.c2ln'));
    const description = 'The access token is malformed or was not issued by this server';
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(challenge('invalid_token', description));
    expect(answer.body).toEqual({
      error: 'invalid_token',
      error_description: description,
      code: 'INVALID_TOKEN',
      statusCode: 401,
    });
  });

  it('a token without openid: 403 insufficient_scope', async () => {
    const { token } = await accessToken('email', true);
    const answer = await userInfo(withBearer(token));
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toBe(
      challenge('insufficient_scope', 'The access token was not granted the openid scope'),
    );
    expect(answer.body).toEqual({
      error: 'insufficient_scope',
      error_description: 'The access token was not granted the openid scope',
      code: 'INSUFFICIENT_SCOPE',
      statusCode: 403,
    });
  });

  it('the token twice (header and body, or the field repeated): 400 invalid_request (RFC 6750 2)', async () => {
    const { token } = await accessToken('openid', false);
    const both = await userInfo(postForm({ access_token: token }, { authorization: `Bearer ${token}` }));
    const repeated = await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `access_token=${token}&access_token=${token}`,
    });
    for (const answer of [
      both,
      { status: repeated.status, headers: repeated.headers, body: await repeated.json() },
    ]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        error: 'invalid_request',
        error_description: 'the access token was sent more than once',
        code: 'INVALID_REQUEST',
        statusCode: 400,
      });
      expect(answer.headers.get('www-authenticate')).toBe(
        challenge('invalid_request', 'the access token was sent more than once'),
      );
    }
  });

  it('answers the CORS preflight for GET and POST', async () => {
    const response = await fetch(`${flow.suite.baseUrl}/oauth/userinfo`, {
      method: 'OPTIONS',
      headers: { origin: 'https://spa.example', 'access-control-request-method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });
});
