import { describe, expect, it } from 'vitest';
import { authorizationParameters, newAppClient, useCodeFlow } from '../support/code-flow.js';
import { basicAuth } from '../support/tokens.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';

/** REQUIRE_PAR=true (RFC 9126 section 5, docs/par-and-dpop.md #4): every client must push. */
const flow = useCodeFlow({}, { REQUIRE_PAR: 'true' });

describe('REQUIRE_PAR', () => {
  it('says so in the metadata and refuses an authorization request that was not pushed', async () => {
    const metadata = (await (
      await fetch(`${flow.suite.baseUrl}/.well-known/oauth-authorization-server`)
    ).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      pushed_authorization_request_endpoint: `${flow.suite.baseUrl}/oauth/par`,
      require_pushed_authorization_requests: true,
    });

    const client = await newAppClient(flow);
    const parameters = authorizationParameters({ client });
    const plain = await new FormBrowser().get(
      `${flow.suite.baseUrl}/oauth/authorize?${new URLSearchParams(parameters)}`,
    );
    expect(plain.status).toBe(302);
    expect(Object.fromEntries(new URL(plain.location!).searchParams)).toEqual({
      error: 'invalid_request',
      error_description: 'Pushed authorization requests are required: push the request to /oauth/par first',
      state: 'af0ifjsldkj',
      iss: flow.suite.baseUrl,
    });

    const pushed = await fetch(`${flow.suite.baseUrl}/oauth/par`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...basicAuth(client.clientId, client.clientSecret!),
      },
      body: new URLSearchParams(parameters),
    });
    expect(pushed.status).toBe(201);
    const { request_uri } = (await pushed.json()) as { request_uri: string };
    const started = await new FormBrowser().get(
      `${flow.suite.baseUrl}/oauth/authorize?${new URLSearchParams({ client_id: client.clientId, request_uri })}`,
    );
    expect(started.status).toBe(302);
    expect(started.location).toMatch(new RegExp(`^${flow.suite.baseUrl}/ui/login\\?`));
  });
});
