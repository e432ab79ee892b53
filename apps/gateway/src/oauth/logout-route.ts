import type { LogoutOutcome } from '@authz/proto/oauth/v1/oauth';
import { InternalError } from '@authz/shared/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clearedSessionCookie, sessionToken } from '../http/cookies.js';
import { noStore } from '../http/no-store.js';
import { queryFields } from '../http/query-fields.js';
import { requestOrigin } from '../http/request-origin.js';
import { sendPage } from '../hosted-pages/send-page.js';
import type { Upstreams } from '../plugins/upstreams.js';
import { formFieldsOf, type FormFields } from './form-body.js';

export interface LogoutRouteOptions {
  upstreams: Upstreams;
}

export const LOGOUT_PATH = '/oauth/logout';

/**
 * interface.md 4.3, OIDC RP-Initiated Logout 1.0 section 2 (GET and POST): oauth decides; this
 * passes the parameters as sent with the session cookie, and answers a redirect (clearing the
 * cookie when its session ended) or the error page, never a redirect to an unchecked URI.
 */
export async function logoutRoute(app: FastifyInstance, { upstreams }: LogoutRouteOptions) {
  const config = { errorFormat: 'oauth' } as const;
  app.get(LOGOUT_PATH, { config }, async (request, reply) =>
    logout(upstreams, request, reply, queryFields(request), 302),
  );
  app.post(LOGOUT_PATH, { config }, async (request, reply) =>
    logout(upstreams, request, reply, formFieldsOf(request), 303),
  );
}

async function logout(
  upstreams: Upstreams,
  request: FastifyRequest,
  reply: FastifyReply,
  parameters: FormFields,
  redirectStatus: 302 | 303,
): Promise<FastifyReply> {
  const session = sessionToken(request);
  const { outcome } = await upstreams.authorization.endSession({
    parameters,
    ...(session === undefined ? {} : { sessionToken: session }),
    origin: requestOrigin(request),
  });
  return sendOutcome(upstreams, reply, outcome, redirectStatus);
}

async function sendOutcome(
  upstreams: Upstreams,
  reply: FastifyReply,
  outcome: LogoutOutcome | undefined,
  redirectStatus: 302 | 303,
): Promise<FastifyReply> {
  switch (outcome?.next.case) {
    case 'redirectTo':
      if (outcome.clearSessionCookie) reply.header('set-cookie', clearedSessionCookie());
      return noStore(reply).code(redirectStatus).header('location', outcome.next.value).send();
    case 'errorPage': {
      const { error, errorDescription } = outcome.next.value;
      const { page } = await upstreams.hostedPages.renderAuthorizationError({ error, errorDescription });
      return sendPage(reply, page!);
    }
    default:
      throw new InternalError({ detail: 'logout outcome without a next step' });
  }
}
