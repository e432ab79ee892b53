import type { UserInfoResponse } from '@authz/proto/oauth/v1/oauth';
import { InvalidRequestError } from '@authz/shared/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { presentedAccessToken, type PresentedAccessToken } from '../http/bearer-token.js';
import { noStore } from '../http/no-store.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import type { Upstreams } from '../plugins/upstreams.js';
import { formFieldsOf } from './form-body.js';
import { withInvalidTokenBudget } from './invalid-token-failures.js';

export interface UserInfoRouteOptions {
  upstreams: Upstreams;
  /** invalid_token answers per address (docs/security.md #11). */
  invalidTokenBudget: RateLimitBudget;
}

const USERINFO_PATH = '/oauth/userinfo';

/** interface.md 4.3: sub always; email and email_verified together or not at all, never null. */
const userInfoResponse = {
  type: 'object',
  required: ['sub'],
  additionalProperties: false,
  properties: {
    sub: { type: 'string', description: 'The user id.' },
    email: { type: 'string', description: 'With the `email` scope.' },
    email_verified: { type: 'boolean', description: 'With `email`, never without it.' },
    name: { type: 'string', description: 'With the `profile` scope, once the user has set a name.' },
  },
} as const;

/**
 * OIDC Core section 5.3: UserInfo, a Bearer-protected resource (RFC 6750 section 3 errors in
 * WWW-Authenticate, docs/gateway-routes.md #5). oauth checks the token and the openid scope
 * and picks the claims; this finds the token. CORS like the token endpoint: SPAs call it.
 */
export async function userInfoRoute(
  app: FastifyInstance,
  { upstreams, invalidTokenBudget }: UserInfoRouteOptions,
) {
  // Limited per client by oauth, not per address (docs/security.md #11): a relying party's
  // backend asks for many users from one address.
  const config = {
    cors: true,
    errorFormat: 'oauth',
    authChallenge: 'Bearer',
    rateLimit: 'per-client',
  } as const;
  const schema = { response: { 200: userInfoResponse } };
  const answer = async (request: FastifyRequest, reply: FastifyReply, presented: PresentedAccessToken) =>
    sendUserInfo(
      reply,
      await withInvalidTokenBudget(request, invalidTokenBudget, () => upstreams.tokens.userInfo(presented)),
    );

  // RFC 6750 section 2.1 and RFC 9449 section 7.1; the query parameter of RFC 6750 section 2.3
  // is not offered (interface.md 4.3).
  app.get(USERINFO_PATH, { config, schema }, async (request, reply) =>
    answer(request, reply, presentedAccessToken(request)),
  );
  app.post(USERINFO_PATH, { config, schema }, async (request, reply) =>
    answer(request, reply, postedToken(request)),
  );
  app.corsPreflight(USERINFO_PATH, ['GET', 'POST']);
}

/**
 * RFC 6750 sections 2.1 and 2.2: the Authorization header or the form field access_token;
 * "clients MUST NOT use more than one method" (section 2), so both at once, or the field
 * twice, is invalid_request.
 */
function postedToken(request: FastifyRequest): PresentedAccessToken {
  const fields = formFieldsOf(request).filter((field) => field.name === 'access_token');
  const inHeader = /^(bearer|dpop) /i.test(request.headers.authorization ?? '');
  if (fields.length > 1 || (fields.length === 1 && inHeader)) {
    throw new InvalidRequestError({ message: 'the access token was sent more than once' });
  }
  return fields[0]?.value ? { accessToken: fields[0].value } : presentedAccessToken(request);
}

function sendUserInfo(
  reply: FastifyReply,
  { sub, email, emailVerified, name }: UserInfoResponse,
): FastifyReply {
  return noStore(reply).send({
    sub,
    ...(email === undefined ? {} : { email }),
    ...(emailVerified === undefined ? {} : { email_verified: emailVerified }),
    ...(name === undefined ? {} : { name }),
  });
}
