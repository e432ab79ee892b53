import type { AuthorizationOutcome } from '@authz/proto/oauth/v1/oauth';
import { InternalError } from '@authz/shared/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sessionToken } from '../http/cookies.js';
import { noStore } from '../http/no-store.js';
import { queryFields } from '../http/query-fields.js';
import { requestOrigin } from '../http/request-origin.js';
import { sendPage } from '../hosted-pages/send-page.js';
import type { Upstreams } from '../plugins/upstreams.js';
import { formFieldsOf, type FormFields } from './form-body.js';

export interface AuthorizeRouteOptions {
  upstreams: Upstreams;
}

const AUTHORIZE_PATH = '/oauth/authorize';

/**
 * RFC 6749 section 3.1 (GET, and POST as OIDC Core 3.1.2.1 allows): oauth validates the
 * request and answers where the browser goes next; this passes the parameters as sent,
 * duplicates included, with the session cookie, and turns the answer into HTTP.
 */
export async function authorizeRoute(app: FastifyInstance, { upstreams }: AuthorizeRouteOptions) {
  const config = { errorFormat: 'oauth' } as const;
  app.get(AUTHORIZE_PATH, { config }, async (request, reply) =>
    authorize(upstreams, request, reply, queryFields(request), 302),
  );
  // OAuth 2.1 section 7.5.1: 303 after a POST, so the browser does not resend the form.
  app.post(AUTHORIZE_PATH, { config }, async (request, reply) =>
    authorize(upstreams, request, reply, formFieldsOf(request), 303),
  );
}

async function authorize(
  upstreams: Upstreams,
  request: FastifyRequest,
  reply: FastifyReply,
  parameters: FormFields,
  redirectStatus: 302 | 303,
): Promise<FastifyReply> {
  const session = sessionToken(request);
  const { outcome } = await upstreams.authorization.authorize({
    parameters,
    ...(session === undefined ? {} : { sessionToken: session }),
    origin: requestOrigin(request),
  });
  return sendOutcome(upstreams, reply, outcome, redirectStatus);
}

/**
 * A redirect (to the client with a code or an error, or to a hosted page) that carries a code
 * or a handle, so never cached; or, when the client or its redirect URI cannot be trusted,
 * consent-ui's error page and never a redirect (RFC 6749 section 4.1.2.1).
 */
async function sendOutcome(
  upstreams: Upstreams,
  reply: FastifyReply,
  outcome: AuthorizationOutcome | undefined,
  redirectStatus: 302 | 303,
): Promise<FastifyReply> {
  switch (outcome?.next.case) {
    case 'redirectTo':
      return noStore(reply).code(redirectStatus).header('location', outcome.next.value).send();
    case 'errorPage': {
      const { error, errorDescription } = outcome.next.value;
      const { page } = await upstreams.hostedPages.renderAuthorizationError({ error, errorDescription });
      return sendPage(reply, page!);
    }
    default:
      throw new InternalError({ detail: 'authorization outcome without a next step' });
  }
}
