import type { OperationDocs } from '../types.js';

const handle = {
  type: 'object',
  required: ['handle'],
  properties: {
    handle: { type: 'string', description: 'The presentation request handle from the invocation URI.' },
  },
};

const unknown =
  'Wallet federation is off (or has no usable verifier), or the handle is unknown, expired or already served.';

export const walletOperations: OperationDocs = {
  'GET /oid4vp/request/{handle}': {
    operationId: 'getPresentationRequest',
    summary: 'Presentation request object',
    description:
      'The signed request object (OpenID for Verifiable Presentations 1.0 section 5.10) a wallet fetches. ' +
      'Served once per request: a second fetch is 404.',
    tag: 'Wallet',
    params: handle,
    responses: {
      200: {
        description: 'The request object, a signed JWT. `Cache-Control: no-store`.',
        content: { 'application/oauth-authz-req+jwt': { type: 'string' } },
      },
    },
    errors: { 404: unknown },
  },
  'POST /oid4vp/response': {
    operationId: 'postPresentationResponse',
    summary: 'Presentation response',
    description:
      "The wallet's answer (response mode direct_post, OpenID for Verifiable Presentations 1.0 section 8.2). " +
      'Each field at most once; unknown fields are ignored.',
    tag: 'Wallet',
    body: {
      'application/x-www-form-urlencoded': {
        type: 'object',
        required: ['state'],
        properties: {
          state: {
            type: 'string',
            description: 'The `state` of the request object: which flow this answers.',
          },
          vp_token: { type: 'string', description: 'The presentation (an SD-JWT VC with key binding).' },
          error: { type: 'string', description: 'Instead of `vp_token`: why the wallet declined.' },
          error_description: { type: 'string', description: 'With `error`: more about it.' },
        },
      },
    },
    responses: {
      200: {
        description:
          'Received: `{ "redirect_uri" }` with a `response_code` (section 8.2); only the browser that started ' +
          'the flow can use it. `Cache-Control: no-store`.',
        content: {
          'application/json': {
            type: 'object',
            required: ['redirect_uri'],
            properties: {
              redirect_uri: { type: 'string', description: 'Where the wallet sends the browser.' },
            },
          },
        },
      },
    },
    errors: {
      400: '`invalid_request`: a field sent twice, or a presentation that does not verify.',
      404: unknown,
      415: 'The body is not `application/x-www-form-urlencoded`.',
    },
  },
};
