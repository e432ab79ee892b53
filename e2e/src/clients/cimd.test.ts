import { randomUUID } from 'node:crypto';
import { TestDocumentServer } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';
import { requestToken } from '../support/tokens.js';

// Client ID metadata documents at POST /oauth/token through the gateway, with documents
// served by the test on loopback (CIMD_ALLOW_INSECURE_LOOPBACK, test-only).
const context = useSuite({ serviceEnv: { CIMD_ENABLED: 'true', CIMD_ALLOW_INSECURE_LOOPBACK: 'true' } });
let documents: TestDocumentServer;

beforeAll(async () => {
  documents = await TestDocumentServer.start();
});
afterAll(() => documents.close());

function publish(document: (clientId: string) => unknown) {
  const path = `/apps/${randomUUID()}/client.json`;
  const clientId = documents.url(path);
  documents.serve(path, { body: document(clientId) });
  return { clientId, path };
}

const notesApp = (clientId: string) => ({
  client_id: clientId,
  client_name: 'Notes',
  redirect_uris: ['https://notes.example/callback'],
  grant_types: ['authorization_code', 'refresh_token'],
});

const asClient = (clientId: string, grantType: string, extra: [string, string][] = []) =>
  requestToken(context.suite, [['grant_type', grantType], ['client_id', clientId], ...extra]);

const invalidClient = (description: string) => ({
  error: 'invalid_client',
  error_description: description,
  code: 'INVALID_CLIENT',
  statusCode: 401,
});

describe('CIMD client at the token endpoint', () => {
  it('authenticates a document client: it gets past client authentication to the grant checks', async () => {
    const { clientId, path } = publish(notesApp);
    // Authenticated, but the document does not register client_credentials (interface.md 7 mapping).
    const grantRefused = await asClient(clientId, 'client_credentials');
    expect(grantRefused.status).toBe(400);
    expect(grantRefused.body).toEqual({
      error: 'unauthorized_client',
      error_description: 'The client may not use client_credentials',
      code: 'UNAUTHORIZED_CLIENT',
      statusCode: 400,
    });
    const unknownToken = await asClient(clientId, 'refresh_token', [['refresh_token', 'ab'.repeat(32)]]);
    expect(unknownToken.status).toBe(400);
    expect(unknownToken.body).toMatchObject({ error: 'invalid_grant' });
    expect(documents.requests(path)).toBe(1);
  });

  it('answers a document that is not JSON with 401 invalid_client and a description', async () => {
    const { clientId } = publish(() => '{"client_id": "unterminated');
    const response = await asClient(clientId, 'refresh_token');
    expect(response.status).toBe(401);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual(invalidClient('The client metadata document is not valid JSON'));
  });

  it('refuses a document whose client_id differs from its URL', async () => {
    const { clientId } = publish(() => notesApp('https://notes.example/client.json'));
    const response = await asClient(clientId, 'refresh_token');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(
      invalidClient("The client metadata document's client_id does not match its URL"),
    );
  });

  it('refuses an oversize document', async () => {
    const { clientId } = publish((id) => ({ ...notesApp(id), padding: 'x'.repeat(8_000) }));
    const response = await asClient(clientId, 'refresh_token');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(invalidClient('The client metadata document exceeds 5120 bytes'));
  });
});
