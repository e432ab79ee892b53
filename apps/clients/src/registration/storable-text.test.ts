import { randomUUID } from 'node:crypto';
import {
  InvalidClientError,
  InvalidClientMetadataError,
  InvalidRedirectUriError,
  ValidationError,
  toOAuthWire,
} from '@authz/shared/errors';
import { TestDocumentServer, useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newOwner, rejection, startClients, type ClientsHarness } from '../../test/clients-harness.js';

// Text PostgreSQL cannot store (U+0000) or the driver refuses (a lone surrogate) is refused by
// the clients service itself, whoever sent it: RFC 7591 metadata arrives as JSON text, and CIMD
// documents are fetched and parsed here, out of the gateway's sight.
const environment = useTestEnvironment();
let clients: ClientsHarness;
let documents: TestDocumentServer;

beforeAll(async () => {
  clients = await startClients(environment, { CIMD_ENABLED: 'true', CIMD_ALLOW_INSECURE_LOOPBACK: 'true' });
  documents = await TestDocumentServer.start();
});
afterAll(async () => {
  await clients.close();
  await documents.close();
});

const UNSTORABLE = 'must not contain U+0000 or an unpaired surrogate';

async function storedClients(): Promise<number> {
  const { rows } = await clients.sql.query<{ count: string }>('SELECT count(*) FROM clients.clients');
  return Number(rows[0]!.count);
}

describe('unstorable text', () => {
  it('is invalid_client_metadata in a registration, and nothing is stored', async () => {
    const before = await storedClients();
    const register = (metadata: Record<string, unknown>) =>
      rejection(clients.client.registerClient({ metadataJson: JSON.stringify(metadata) }));
    const base = { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none' };

    const name = await register({ ...base, client_name: 'Notes\u0000' });
    expect(name).toBeInstanceOf(InvalidClientMetadataError);
    expect((name as Error).message).toBe(`client_name: ${UNSTORABLE}`);

    const surrogate = await register({ ...base, redirect_uris: ['https://app.example/cb\ud800'] });
    expect(surrogate).toBeInstanceOf(InvalidRedirectUriError);
    expect((surrogate as Error).message).toBe(`redirect_uris[0]: ${UNSTORABLE}`);

    const jwks = await register({
      ...base,
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'abc', kid: '\udfff' }] },
    });
    expect((jwks as Error).message).toBe(`jwks: ${UNSTORABLE}`);
    expect(await storedClients()).toBe(before);
  });

  it('is a field violation through the developer API', async () => {
    const error = (await rejection(
      clients.client.createClient({
        owner: newOwner(),
        settings: {
          name: 'Notes',
          description: { value: 'a\u0000b' },
          redirectUris: { values: ['https://app.example/\u0000'] },
        },
      }),
    )) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details).toEqual([
      { path: 'description', message: UNSTORABLE },
      { path: 'redirectUris.0', message: UNSTORABLE },
    ]);
  });

  it('makes a CIMD document invalid, naming the member', async () => {
    const path = `/clients/${randomUUID()}.json`;
    const clientId = documents.url(path);
    documents.serve(path, {
      body: { client_id: clientId, client_name: 'Notes\u0000', redirect_uris: ['https://notes.example/cb'] },
    });
    const error = await rejection(
      clients.client.authenticateClient({ bodyClientId: clientId, grantType: 'authorization_code' }),
    );
    expect(error).toBeInstanceOf(InvalidClientError);
    expect(toOAuthWire(error as InvalidClientError)).toEqual({
      error: 'invalid_client',
      error_description: `The client metadata document is invalid: client_name: ${UNSTORABLE}`,
      code: 'INVALID_CLIENT',
      statusCode: 401,
    });
  });
});
