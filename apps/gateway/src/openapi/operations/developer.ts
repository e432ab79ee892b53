import type { OperationDoc, OperationDocs } from '../types.js';

const developer: Pick<OperationDoc, 'tag' | 'security'> = {
  tag: 'Developer API',
  security: [{ accessToken: [] }],
};

const unauthenticated = {
  401: '`UNAUTHORIZED`: no first-party user access token, or one that is invalid, expired or revoked.',
};
const unknownClient = {
  ...unauthenticated,
  404: "`NOT_FOUND`: no such client, or another developer's.",
};
const invalidSettings = {
  400:
    '`VALIDATION_ERROR`: `details` names each rejected field (URIs, grant and response type consistency, ' +
    'scopes outside the realm policy, lengths).',
  415: 'The body is not JSON.',
};

/** Every operation of the developer API: authenticated by a first-party user token. */
const op = (doc: Omit<OperationDoc, 'tag' | 'security'>): OperationDoc => ({ ...developer, ...doc });

const idNote = 'Paths take the record `id` or the OAuth `clientId`.';

export const developerOperations: OperationDocs = {
  'GET /api/clients': op({
    operationId: 'listClients',
    summary: 'List your clients',
    responses: { 200: { description: "The developer's clients." } },
    errors: unauthenticated,
  }),
  'POST /api/clients': op({
    operationId: 'createClient',
    summary: 'Create a client',
    description:
      'New clients start enabled and in the development environment. The secret methods (`client_secret_basic`, ' +
      '`client_secret_post`) get a secret, returned this once; `none` and `private_key_jwt` get none.',
    responses: {
      201: { description: 'The client, with `clientSecret` for a secret method. `Cache-Control: no-store`.' },
    },
    errors: { ...unauthenticated, ...invalidSettings },
  }),
  'GET /api/clients/{id}': op({
    operationId: 'getClient',
    summary: 'Get a client',
    description: idNote,
    responses: { 200: { description: 'The client.' } },
    errors: unknownClient,
  }),
  'PATCH /api/clients/{id}': op({
    operationId: 'updateClient',
    summary: 'Change a client',
    description: `Only the fields sent change; \`null\` clears a nullable one. ${idNote}`,
    responses: { 200: { description: 'The client as changed.' } },
    errors: { ...unknownClient, ...invalidSettings },
  }),
  'DELETE /api/clients/{id}': op({
    operationId: 'deleteClient',
    summary: 'Delete a client',
    description: `Deletes its API keys too. ${idNote}`,
    responses: { 204: { description: 'Deleted.' } },
    errors: unknownClient,
  }),
  'POST /api/clients/{id}/regenerate-secret': op({
    operationId: 'regenerateClientSecret',
    summary: 'Replace the client secret',
    description: `The old secret stops working at once. ${idNote}`,
    responses: { 200: { description: 'The client with its new `clientSecret`. `Cache-Control: no-store`.' } },
    errors: {
      ...unknownClient,
      400: '`VALIDATION_ERROR`: a `none` or `private_key_jwt` client has no secret.',
    },
  }),
  'POST /api/clients/{id}/api-keys': op({
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description:
      'An API key stands in for the client secret in the client_credentials grant, only while the client is in ' +
      'the development environment.',
    responses: {
      201: { description: 'The key, with its plaintext `key` shown this once. `Cache-Control: no-store`.' },
    },
    errors: {
      ...unknownClient,
      400: '`VALIDATION_ERROR`: no `name`.',
      403: '`FORBIDDEN`: the client is not in the development environment.',
      415: 'The body is not JSON.',
    },
  }),
  'GET /api/clients/{id}/api-keys': op({
    operationId: 'listApiKeys',
    summary: "List a client's API keys",
    responses: { 200: { description: 'The keys, masked, revoked ones included.' } },
    errors: unknownClient,
  }),
  'DELETE /api/clients/{id}/api-keys/{keyId}': op({
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description: 'The key is kept, with `revokedAt` set; revoking again answers the same.',
    responses: { 200: { description: 'The revoked key, masked.' } },
    errors: { ...unauthenticated, 404: '`NOT_FOUND`: no such client or key.' },
  }),
};
