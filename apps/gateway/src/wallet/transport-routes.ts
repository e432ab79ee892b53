import type { PresentationTransportService } from '@authz/proto/walletbridge/v1/walletbridge';
import { InvalidRequestError, NotFoundError } from '@authz/shared/errors';
import type { ServiceClient } from '@authz/shared/grpc';
import type { FastifyInstance } from 'fastify';
import { noStore } from '../http/no-store.js';
import { sendBareNotFound } from './bare-not-found.js';
import { formFieldsOf } from '../oauth/form-body.js';

export interface TransportRoutesOptions {
  transport: ServiceClient<typeof PresentationTransportService>;
}

const RESPONSE_FIELDS = ['state', 'vp_token', 'error', 'error_description'] as const;
type ResponseField = (typeof RESPONSE_FIELDS)[number];

/** Handles are 43 base64url characters; anything much longer names nothing (interface.md 4.9). */
const MAX_HANDLE_LENGTH = 128;

/** interface.md 4.9: the OID4VP transport wallets talk to; unauthenticated (interface.md 5). */
export async function transportRoutes(app: FastifyInstance, { transport }: TransportRoutesOptions) {
  app.get<{ Params: { handle: string } }>('/oid4vp/request/:handle', async (request, reply) => {
    const { handle } = request.params;
    if (handle.length > MAX_HANDLE_LENGTH) throw new NotFoundError();
    const { requestObject } = await transport.getRequestObject({ handle });
    // OID4VP 1.0 section 5.10.1 / RFC 9101 section 10.2: the request object's media type.
    return noStore(reply).type('application/oauth-authz-req+jwt').send(requestObject);
  });

  // OID4VP 1.0 section 8.2 answers in the RFC 6749 error format.
  app.post('/oid4vp/response', { config: { errorFormat: 'oauth' } }, async (request, reply) => {
    const fields = responseFields(formFieldsOf(request));
    let redirectUri: string | undefined;
    try {
      ({ redirectUri } = await transport.submitResponse(fields));
    } catch (error) {
      // wallet-bridge without a usable verifier profile: the route does not exist.
      if (error instanceof NotFoundError) return sendBareNotFound(reply);
      throw error;
    }
    // OID4VP 1.0 section 8.2: 200 with the redirect_uri carrying the response code, which only
    // the browser that started the flow can use (docs/wallet.md #18).
    return noStore(reply).code(200).send({ redirect_uri: redirectUri });
  });
}

/** The known fields, each at most once (RFC 6749 section 3.1); unknown ones are ignored. */
function responseFields(fields: { name: string; value: string }[]) {
  const chosen: Partial<Record<'state' | 'vpToken' | 'error' | 'errorDescription', string>> = {};
  for (const name of RESPONSE_FIELDS) {
    const values = fields.filter((field) => field.name === name);
    if (values.length > 1) throw new InvalidRequestError({ message: `${name} is repeated` });
    if (values[0] !== undefined) chosen[camel(name)] = values[0].value;
  }
  return chosen;
}

function camel(name: ResponseField) {
  return (
    { state: 'state', vp_token: 'vpToken', error: 'error', error_description: 'errorDescription' } as const
  )[name];
}
