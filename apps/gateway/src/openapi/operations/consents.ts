import type { OperationDocs } from '../types.js';

export const consentOperations: OperationDocs = {
  'GET /consents/': {
    operationId: 'listConsents',
    summary: 'List your consents',
    description: 'Same-origin only (no CORS), so no other site can read the list or its CSRF token.',
    tag: 'Consents',
    security: [{ sessionCookie: [] }],
    responses: {
      200: { description: 'The consents, with the CSRF token that revoking one needs.' },
      401: {
        description: 'No session, or an unknown or expired one: the ApiError envelope with an empty list.',
      },
    },
  },
  'DELETE /consents/{id}': {
    operationId: 'revokeConsent',
    summary: 'Revoke a consent',
    description:
      "Revokes the consent and the client's refresh tokens issued under it; the client must ask again next time.",
    tag: 'Consents',
    security: [{ sessionCookie: [], csrfToken: [] }],
    responses: { 204: { description: 'Revoked.' } },
    errors: {
      400: '`INVALID_CSRF_TOKEN`: X-CSRF-Token missing, empty or not the session token.',
      401: '`UNAUTHORIZED`: no session, or an unknown or expired one.',
      404: "`NOT_FOUND`: no such consent, already revoked, or another user's.",
    },
  },
};
