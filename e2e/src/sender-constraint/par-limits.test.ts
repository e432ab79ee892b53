import { describe, expect, it } from 'vitest';
import { authorizationParameters, newAppClient, useCodeFlow } from '../support/code-flow.js';
import { basicAuth, requestToken } from '../support/tokens.js';

/**
 * RFC 9126 section 2 with docs/security.md #11: /oauth/par spends the same per-client budget as
 * the token endpoint (docs/par-and-dpop.md #1).
 */
const flow = useCodeFlow({}, { CLIENT_RATE_LIMIT: '3', CLIENT_RATE_WINDOW: '3600' });

describe('the per-client budget at /oauth/par', () => {
  it('answers 429 with Retry-After once the client spent its budget, shared with /oauth/token', async () => {
    const client = await newAppClient(flow);
    const basic = basicAuth(client.clientId, client.clientSecret!);
    const push = () =>
      fetch(`${flow.suite.baseUrl}/oauth/par`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic },
        body: new URLSearchParams(authorizationParameters({ client })),
      });
    expect((await push()).status).toBe(201);
    expect((await push()).status).toBe(201);
    const token = await requestToken(
      flow.suite,
      [
        ['grant_type', 'refresh_token'],
        ['refresh_token', 'x'],
      ],
      basic,
    );
    expect(token.status).toBe(400);

    const limited = await push();
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ error: 'rate_limited', code: 'RATE_LIMITED', statusCode: 429 });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    const tokenLimited = await requestToken(
      flow.suite,
      [
        ['grant_type', 'refresh_token'],
        ['refresh_token', 'x'],
      ],
      basic,
    );
    expect(tokenLimited.status).toBe(429);

    // Another client's budget is its own.
    const other = await newAppClient(flow);
    const pushed = await fetch(`${flow.suite.baseUrl}/oauth/par`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...basicAuth(other.clientId, other.clientSecret!),
      },
      body: new URLSearchParams(authorizationParameters({ client: other })),
    });
    expect(pushed.status).toBe(201);
  });
});
