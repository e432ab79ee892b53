import type { JsonSchema, OperationDocs } from '../types.js';
import {
  assertionFields,
  authorizationRequest,
  clientAuthFailed,
  formOnly,
  optionalBasic,
  secretFields,
} from './oauth.js';

/** RFC 9126 section 2 (interface.md 4.12): the authorization request pushed ahead, answered with a `request_uri`. */
export const parOperations: OperationDocs = {
  'POST /oauth/par': {
    operationId: 'pushAuthorizationRequest',
    summary: 'Pushed authorization request',
    description:
      'RFC 9126: the client posts the parameters of an authorization request, authenticated as at the token ' +
      'endpoint (public clients with `client_id`), and gets a single-use `request_uri` valid 60 s to send to ' +
      '`/oauth/authorize` with `client_id`, where the other parameters are then ignored. The request is checked ' +
      'as `/oauth/authorize` checks it, but failures are JSON errors, never redirects. A `DPoP` header (RFC 9449) ' +
      'binds the code to its key as `dpop_jkt` does. Browser-based clients may call it (CORS).',
    tag: 'OAuth',
    security: optionalBasic,
    body: {
      'application/x-www-form-urlencoded': {
        ...authorizationRequest,
        properties: {
          ...(authorizationRequest.properties as Record<string, JsonSchema>),
          ...secretFields,
          ...assertionFields,
          dpop_jkt: {
            type: 'string',
            pattern: '^[A-Za-z0-9_-]{43}$',
            description:
              'RFC 9449 section 10: the JWK SHA-256 thumbprint of the DPoP key the code is bound to.',
          },
        },
      },
    },
    responses: { 201: { description: '`request_uri` and `expires_in` (60). `Cache-Control: no-store`.' } },
    errors: {
      400:
        '`invalid_request` (with the `error_description` `/oauth/authorize` gives), `invalid_scope`, ' +
        '`invalid_target`, `unauthorized_client`, `invalid_dpop_proof` or `use_dpop_nonce` (with `DPoP-Nonce`).',
      ...clientAuthFailed,
      ...formOnly,
    },
  },
};
