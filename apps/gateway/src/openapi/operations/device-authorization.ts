import type { OperationDocs } from '../types.js';
import { assertionFields, clientAuthFailed, formOnly, optionalBasic, secretFields } from './oauth.js';

/** RFC 8628 section 3.1 (interface.md 4.13). */
export const deviceAuthorizationOperations: OperationDocs = {
  'POST /oauth/device_authorization': {
    operationId: 'deviceAuthorization',
    summary: 'Device authorization request',
    description:
      'Starts the device flow (RFC 8628): the client authenticates as at the token endpoint (a public client ' +
      'by `client_id`) and must hold the `urn:ietf:params:oauth:grant-type:device_code` grant. The user ' +
      'enters `user_code` on `/ui/device` while the device polls `/oauth/token` with `device_code`.',
    tag: 'OAuth',
    security: optionalBasic,
    body: {
      'application/x-www-form-urlencoded': {
        type: 'object',
        properties: {
          scope: {
            type: 'string',
            description: "Space-separated scopes within the client's allow-list, as at `/oauth/authorize`.",
          },
          ...secretFields,
          ...assertionFields,
        },
      },
    },
    responses: {
      200: {
        description: 'The codes and where the user goes (RFC 8628 section 3.2). `Cache-Control: no-store`.',
      },
    },
    errors: {
      400:
        '`invalid_request` (a field sent twice), `unauthorized_client` (the client lacks the device grant) or ' +
        '`invalid_scope`, with an `error_description`.',
      ...clientAuthFailed,
      ...formOnly,
    },
  },
};
