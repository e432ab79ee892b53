import { randomUUID } from 'node:crypto';
import { TestDocumentServer } from '@authz/shared/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';
import { requestToken } from '../support/tokens.js';

// CIMD with loopback disallowed (the production setting): a document URL that resolves to a
// loopback or private address is refused after DNS resolution and never connected to.
const context = useSuite({ serviceEnv: { CIMD_ENABLED: 'true' } });
let documents: TestDocumentServer;

beforeAll(async () => {
  documents = await TestDocumentServer.start();
});
afterAll(() => documents.close());

const refused = {
  error: 'invalid_client',
  error_description: 'The client metadata document could not be retrieved',
  code: 'INVALID_CLIENT',
  statusCode: 401,
};

it('refuses document URLs on loopback and private addresses without connecting', async () => {
  const path = `/apps/${randomUUID()}/client.json`;
  const clientId = `https://localhost:${documents.port}${path}`;
  documents.serve(path, { body: { client_id: clientId, redirect_uris: ['https://a.example/cb'] } });
  for (const url of [
    clientId,
    'https://10.1.2.3/apps/client.json',
    'https://169.254.169.254/latest/client.json',
  ]) {
    const response = await requestToken(context.suite, [
      ['grant_type', 'refresh_token'],
      ['client_id', url],
    ]);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(refused);
  }
  expect(documents.connections).toBe(0);
});

it('does not take plain http document URLs without the test-only flag', async () => {
  const response = await requestToken(context.suite, [
    ['grant_type', 'refresh_token'],
    ['client_id', documents.url('/apps/client.json')],
  ]);
  expect(response.status).toBe(401);
  expect(response.body).toEqual({
    error: 'invalid_client',
    error_description: 'The client_id is not a valid client metadata document URL',
    code: 'INVALID_CLIENT',
    statusCode: 401,
  });
});
