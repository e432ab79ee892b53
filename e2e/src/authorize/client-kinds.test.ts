import { randomUUID } from 'node:crypto';
import { TestDocumentServer } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/clients.js';
import {
  completeAuthorization,
  newUser,
  redeemCode,
  REDIRECT_URI,
  refresh,
  useCodeFlow,
  verifyIdToken,
  type AppClient,
} from '../support/code-flow.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';

// Issue scope: clients of every kind start the code flow — pre-registered ones are covered by
// code-flow.test.ts; here a dynamically registered (RFC 7591) and a CIMD client, both public,
// walk the whole flow through the gateway (interface.md 5 resolution order).
const flow = useCodeFlow({}, { CIMD_ENABLED: 'true', CIMD_ALLOW_INSECURE_LOOPBACK: 'true' });
let documents: TestDocumentServer;

beforeAll(async () => {
  documents = await TestDocumentServer.start();
});
afterAll(() => documents.close());

const publicClient = (clientId: string): AppClient => ({ id: '', clientId, confidential: false });

async function expectWholeFlow(client: AppClient): Promise<void> {
  const user = await newUser(flow);
  const result = await completeAuthorization(flow, new FormBrowser(), user, {
    client,
    scope: 'openid email',
  });
  expect(result.prompts).toEqual(['login', 'consent']);
  expect(result.query).toEqual({
    code: expect.any(String),
    state: 'af0ifjsldkj',
    iss: flow.suite.baseUrl,
  });
  const tokens = await redeemCode(flow, client, result.code!, result.verifier);
  expect(tokens.status).toBe(200);
  expect(tokens.body).toEqual({
    access_token: expect.any(String),
    refresh_token: expect.stringMatching(/^[0-9a-f]{64}$/),
    id_token: expect.any(String),
    expires_in: 900,
    token_type: 'Bearer',
    scope: 'openid email',
  });
  const idToken = await verifyIdToken(flow, client, tokens.body.id_token as string);
  expect(idToken).toMatchObject({ sub: user.id, aud: client.clientId, nonce: 'n-0S6_WzA2Mj' });
  const renewed = await refresh(flow, client, tokens.body.refresh_token as string);
  expect(renewed.status).toBe(200);
  expect(renewed.body).not.toHaveProperty('id_token');
}

describe('the code flow for clients that are not pre-registered', () => {
  it('runs for a dynamically registered public client (RFC 7591)', async () => {
    const registered = await call<{ client_id: string }>(flow.suite, 'POST', '/oauth/register', {
      body: {
        client_name: 'Registered app',
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
        scope: 'openid email',
      },
    });
    expect(registered.status).toBe(201);
    await expectWholeFlow(publicClient(registered.body.client_id));
  });

  it('runs for a client ID metadata document client (CIMD)', async () => {
    const path = `/apps/${randomUUID()}/client.json`;
    const clientId = documents.url(path);
    documents.serve(path, {
      body: {
        client_id: clientId,
        client_name: 'Document app',
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
        scope: 'openid email',
      },
    });
    await expectWholeFlow(publicClient(clientId));
    // Cached for every later step of the flow: one fetch served authorize, code and refresh.
    expect(documents.requests(path)).toBe(1);
  });
});
