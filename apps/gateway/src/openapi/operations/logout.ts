import { headers } from '../components.js';
import type { JsonSchema, OperationDocs } from '../types.js';
import { formOnly } from './oauth.js';

// interface.md 4.3: OpenID Connect RP-Initiated Logout 1.0.
const logoutRequest: JsonSchema = {
  type: 'object',
  properties: {
    id_token_hint: {
      type: 'string',
      description:
        'An ID token this server issued (expired ones too). Its `sid` names the session, which then ends ' +
        'without a confirmation page, even without the session cookie.',
    },
    post_logout_redirect_uri: {
      type: 'string',
      description:
        "One of the client's registered `postLogoutRedirectUris`, exactly; needs `client_id` or `id_token_hint`.",
    },
    state: { type: 'string', description: 'Echoed on the redirect; at most 512 characters.' },
    client_id: {
      type: 'string',
      description: 'The client; with `id_token_hint` it must be one of the token audiences.',
    },
    logout_hint: { type: 'string', description: 'Accepted and not used (one account per browser session).' },
    ui_locales: { type: 'string', description: 'Accepted and not used (the pages are in English).' },
  },
};

const logoutDescription =
  'Ends the browser session (OpenID Connect RP-Initiated Logout 1.0), its refresh-token families and its ' +
  'access tokens, and sends a back-channel logout token to every client authorized in it. With a valid ' +
  '`id_token_hint` the session it names ends at once; otherwise a signed-in browser confirms on the hosted ' +
  'page `/ui/logout`. Parameters sent twice are refused.';

function logoutRedirect(status: number) {
  return {
    description:
      `Redirect (${status}): to the registered \`post_logout_redirect_uri\` with \`state\`, to the confirmation ` +
      'page, or to the signed-out page `/ui/signed-out`. Clears the session cookie when its session ended. ' +
      '`Cache-Control: no-store`.',
    headers: { Location: headers.location },
  };
}

const logoutErrorPage = {
  description:
    'An invalid `id_token_hint`, an unknown client, an unregistered `post_logout_redirect_uri`, a parameter ' +
    'sent twice: an HTML error page, never a redirect.',
  content: {
    'text/html': { type: 'string' },
    'application/json': { $ref: '#/components/schemas/OAuthError' },
  },
};

export const logoutOperations: OperationDocs = {
  'GET /oauth/logout': {
    operationId: 'endSession',
    summary: 'End session (RP-initiated logout)',
    description: logoutDescription,
    tag: 'OAuth',
    security: [{ sessionCookie: [] }, {}],
    querystring: logoutRequest,
    responses: { 302: logoutRedirect(302), 400: logoutErrorPage },
  },
  'POST /oauth/logout': {
    operationId: 'endSessionPost',
    summary: 'End session (form post)',
    description: `${logoutDescription} The POST form answers 303.`,
    tag: 'OAuth',
    security: [{ sessionCookie: [] }, {}],
    body: { 'application/x-www-form-urlencoded': logoutRequest },
    responses: { 303: logoutRedirect(303), 400: logoutErrorPage },
    errors: formOnly,
  },
};
