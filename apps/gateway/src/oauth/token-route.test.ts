import { InvalidClientError, InvalidGrantError } from '@authz/shared/errors';
import { beforeEach, describe, expect, it } from 'vitest';
import { useStubbedGateway } from '../../test/stub-upstreams.js';

// POST /oauth/token: the gateway parses the form and the client's Basic credentials and hands
// both to oauth as they came; oauth runs every grant.
const gateway = useStubbedGateway();

const FORM = 'application/x-www-form-urlencoded';
const ORIGIN = { ip: '127.0.0.1', userAgent: 'token-test/1.0' };

function basic(userPass: string): string {
  return `Basic ${Buffer.from(userPass, 'utf8').toString('base64')}`;
}

function token(payload: string, headers: Record<string, string> = {}) {
  return gateway.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': FORM, 'user-agent': ORIGIN.userAgent, ...headers },
    payload,
  });
}

beforeEach(() => {
  gateway.calls.length = 0;
  gateway.stubs.tokens = {
    token: async () => ({
      tokens: { accessToken: 'access-1', refreshToken: 'refresh-1', expiresIn: 300, tokenType: 'Bearer' },
    }),
  };
});

describe('POST /oauth/token', () => {
  it('forwards every form field in order, repeats kept, with the decoded Basic credentials', async () => {
    const response = await token(
      'grant_type=authorization_code&code=c%2B1&resource=https%3A%2F%2Fa.example' +
        '&resource=https%3A%2F%2Fb.example&scope=openid+email',
      // Both halves are form-urlencoded before Base64.
      { authorization: basic('my+client%3A1:s%3Acret%25') },
    );

    expect(response.statusCode).toBe(200);
    expect(gateway.requests('tokens', 'token')).toEqual([
      {
        parameters: [
          { name: 'grant_type', value: 'authorization_code' },
          { name: 'code', value: 'c+1' },
          { name: 'resource', value: 'https://a.example' },
          { name: 'resource', value: 'https://b.example' },
          { name: 'scope', value: 'openid email' },
        ],
        basic: { clientId: 'my client:1', clientSecret: 's:cret%' },
        origin: ORIGIN,
      },
    ]);
  });

  it('sends no Basic credentials when the client authenticates in the body', async () => {
    await token('grant_type=client_credentials&client_id=c1&client_secret=s1');

    expect(gateway.requests('tokens', 'token')).toEqual([
      {
        parameters: [
          { name: 'grant_type', value: 'client_credentials' },
          { name: 'client_id', value: 'c1' },
          { name: 'client_secret', value: 's1' },
        ],
        origin: ORIGIN,
      },
    ]);
  });

  it('answers the token set in its wire form, never cached', async () => {
    gateway.stubs.tokens = {
      token: async () => ({
        tokens: {
          accessToken: 'access-2',
          idToken: 'id-2',
          expiresIn: 600,
          tokenType: 'Bearer',
          scope: 'openid email',
        },
      }),
    };

    const response = await token('grant_type=authorization_code&code=x');

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      access_token: 'access-2',
      id_token: 'id-2',
      expires_in: 600,
      token_type: 'Bearer',
      scope: 'openid email',
    });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
  });

  it('refuses a malformed Basic header as invalid_client with a Basic challenge, asking oauth nothing', async () => {
    const response = await token('grant_type=client_credentials', { authorization: 'Basic not*base64' });

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'invalid_client', code: 'INVALID_CLIENT', statusCode: 401 });
    expect(response.headers['www-authenticate']).toBe('Basic realm="authz"');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
    expect(gateway.calls).toEqual([]);
  });

  it('challenges with Basic only a client that tried Basic', async () => {
    gateway.stubs.tokens = {
      token: async () => {
        throw new InvalidClientError();
      },
    };

    const viaBasic = await token('grant_type=client_credentials', { authorization: basic('c1:wrong') });
    const viaBody = await token('grant_type=client_credentials&client_id=c1&client_secret=wrong');

    expect([viaBasic.statusCode, viaBasic.json(), viaBasic.headers['www-authenticate']]).toEqual([
      401,
      { error: 'invalid_client', code: 'INVALID_CLIENT', statusCode: 401 },
      'Basic realm="authz"',
    ]);
    expect([viaBody.statusCode, viaBody.json(), viaBody.headers['www-authenticate']]).toEqual([
      401,
      { error: 'invalid_client', code: 'INVALID_CLIENT', statusCode: 401 },
      undefined,
    ]);
  });

  it("relays oauth's OAuth error with its description", async () => {
    gateway.stubs.tokens = {
      token: async () => {
        throw new InvalidGrantError({ message: 'The code was already used' });
      },
    };

    const response = await token('grant_type=authorization_code&code=used');

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'The code was already used',
      code: 'INVALID_GRANT',
      statusCode: 400,
    });
    expect(response.headers['www-authenticate']).toBeUndefined();
  });

  it('refuses a body that is not a form with 415, asking oauth nothing', async () => {
    const response = await gateway.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify([{ name: 'grant_type', value: 'client_credentials' }]),
    });

    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      error: 'invalid_request',
      error_description: 'Send the body as application/x-www-form-urlencoded',
      code: 'INVALID_REQUEST',
      statusCode: 415,
    });
    expect(gateway.calls).toEqual([]);
  });
});
