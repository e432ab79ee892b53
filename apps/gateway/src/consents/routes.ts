import type { GetBrowserSessionResponse } from '@authz/proto/identity/v1/identity';
import type { Consent } from '@authz/proto/oauth/v1/oauth';
import { UnauthorizedError, toApiWire } from '@authz/shared/errors';
import type { FastifyInstance } from 'fastify';
import { checkCsrfHeader, requireBrowserSession } from '../http/browser-session.js';
import type { Upstreams } from '../plugins/upstreams.js';

export interface ConsentRoutesOptions {
  upstreams: Upstreams;
}

const consentView = {
  type: 'object',
  required: ['id', 'clientId', 'clientName', 'scopes', 'grantedAt'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', description: 'The consent id, for DELETE /consents/{id}.' },
    clientId: { type: 'string' },
    clientName: { type: 'string' },
    scopes: { type: 'array', items: { type: 'string' }, description: 'The scopes granted to the client.' },
    grantedAt: { type: 'integer', description: 'Epoch milliseconds.' },
  },
} as const;

const consentList = {
  type: 'object',
  required: ['consents', 'csrfToken'],
  additionalProperties: false,
  properties: {
    consents: { type: 'array', items: consentView },
    csrfToken: { type: 'string', description: "The session's CSRF token, for the X-CSRF-Token header." },
  },
} as const;

/** docs/decisions.md #20: the interface.md 7 envelope plus an empty list, and no csrfToken. */
const signedOut = {
  type: 'object',
  required: ['error', 'statusCode', 'consents'],
  additionalProperties: false,
  properties: {
    error: { type: 'string' },
    statusCode: { type: 'integer' },
    code: { type: 'string' },
    consents: { type: 'array', maxItems: 0 },
  },
} as const;

const consentParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 128, description: 'The consent id.' } },
} as const;

/**
 * interface.md 4.6: the signed-in user's consents, authenticated by the session cookie. Same-origin
 * only: no CORS, so no other site can read the list or its CSRF token.
 */
export async function consentRoutes(app: FastifyInstance, { upstreams }: ConsentRoutesOptions) {
  app.get(
    '/consents/',
    { schema: { response: { 200: consentList, 401: signedOut } } },
    async (request, reply) => {
      let session: GetBrowserSessionResponse;
      try {
        session = await requireBrowserSession(upstreams, request);
      } catch (error) {
        if (!(error instanceof UnauthorizedError)) throw error;
        return reply.code(401).send({ ...toApiWire(error), consents: [] });
      }
      const { consents } = await upstreams.authorization.listConsents({ userId: session.user!.id });
      return { consents: consents.map(toConsentView), csrfToken: session.csrfToken };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/consents/:id',
    { schema: { params: consentParams, response: { 204: { type: 'null' } } } },
    async (request, reply) => {
      const session = await requireBrowserSession(upstreams, request);
      checkCsrfHeader(request, session);
      // NotFoundError for an unknown, revoked or someone else's consent: 404 alike (interface.md 4.6).
      await upstreams.authorization.revokeConsent({ userId: session.user!.id, consentId: request.params.id });
      return reply.code(204).send();
    },
  );
}

/** interface.md 2.3. */
function toConsentView(consent: Consent) {
  return {
    id: consent.id,
    clientId: consent.clientId,
    clientName: consent.clientName,
    scopes: consent.scopes,
    grantedAt: Number(consent.grantedAt),
  };
}
