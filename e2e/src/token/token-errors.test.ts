import { expect, it } from 'vitest';
import { useDevelopers } from '../support/use-developers.js';
import { metricValue } from '../support/metrics.js';
import { basicAuth, newClient, requestToken } from '../support/tokens.js';

// interface.md 4.3 and the error mapping of interface.md 7 at POST /oauth/token, beyond client authentication:
// exact RFC 6749 bodies, not cacheable; plus the token metric of docs/decisions.md #24.
const developers = useDevelopers();

async function machine() {
  const client = await newClient(developers.suite, developers.alice.token);
  return basicAuth(client.clientId, client.clientSecret!);
}

const oauthError = (error: string, description: string) => ({
  error,
  error_description: description,
  code: error.toUpperCase(),
  statusCode: 400,
});

it('answers an unknown grant_type with unsupported_grant_type and a missing one with invalid_request', async () => {
  const basic = await machine();
  const unknown = await requestToken(developers.suite, [['grant_type', 'password']], basic);
  expect(unknown.status).toBe(400);
  expect(unknown.headers.get('cache-control')).toBe('no-store');
  expect(unknown.headers.get('pragma')).toBe('no-cache');
  expect(unknown.body).toEqual({
    error: 'unsupported_grant_type',
    code: 'UNSUPPORTED_GRANT_TYPE',
    statusCode: 400,
  });

  const missing = await requestToken(developers.suite, [['scope', 'profile']], basic);
  expect(missing.status).toBe(400);
  expect(missing.body).toEqual(oauthError('invalid_request', 'grant_type is required'));
});

it('refuses a repeated parameter (RFC 6749 section 3.2)', async () => {
  const response = await requestToken(
    developers.suite,
    [
      ['grant_type', 'client_credentials'],
      ['scope', 'profile'],
      ['scope', 'email'],
    ],
    await machine(),
  );
  expect(response.status).toBe(400);
  expect(response.body).toEqual(oauthError('invalid_request', 'Parameter scope was sent more than once'));
});

it('ignores parameters the grant does not declare', async () => {
  const response = await requestToken(
    developers.suite,
    [
      ['grant_type', 'client_credentials'],
      ['refresh_token', 'ab'.repeat(32)],
      ['code_verifier', 'x'.repeat(43)],
      ['subject_token', 'not-a-token'],
    ],
    await machine(),
  );
  expect(response.status).toBe(200);
  expect(response.body).toEqual({ access_token: expect.any(String), expires_in: 900, token_type: 'Bearer' });
});

it('counts issued client_credentials tokens by type and grant', async () => {
  const read = async () =>
    metricValue(await (await fetch(`${developers.suite.baseUrl}/metrics`)).text(), 'tokens_issued_total', {
      type: 'access',
      grant: 'client_credentials',
    });
  const before = await read();
  expect(
    (await requestToken(developers.suite, [['grant_type', 'client_credentials']], await machine())).status,
  ).toBe(200);
  expect(await read()).toBe(before + 1);
  const refreshCount = metricValue(
    await (await fetch(`${developers.suite.baseUrl}/metrics`)).text(),
    'tokens_issued_total',
    {
      type: 'refresh',
      grant: 'client_credentials',
    },
  );
  expect(refreshCount).toBe(0);
});
