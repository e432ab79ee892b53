import type { FastifyInstance } from 'fastify';
import { firstPartyUserOf, requireFirstPartyUser } from '../http/first-party-user.js';
import { requestOrigin } from '../http/request-origin.js';
import type { Upstreams } from '../plugins/upstreams.js';
import * as schemas from './second-factor-schemas.js';

export interface SecondFactorRoutesOptions {
  upstreams: Upstreams;
}

/**
 * docs/interface.md 4.11: the account's second factors for a live first-party user token. identity
 * owns them and checks the password and codes (docs/strong-authentication.md #2, #9).
 */
export async function secondFactorRoutes(app: FastifyInstance, { upstreams }: SecondFactorRoutesOptions) {
  const config = { authChallenge: 'Bearer' } as const;
  const preValidation = requireFirstPartyUser(upstreams);

  app.get(
    '/auth/mfa',
    { config, preValidation, schema: { response: { 200: schemas.secondFactorsView } } },
    async (request) => {
      const { userId } = firstPartyUserOf(request);
      const factors = await upstreams.secondFactors.getSecondFactors({ userId });
      return {
        totp: factors.totp,
        recoveryCodesLeft: factors.recoveryCodesLeft,
        passkeys: factors.passkeys.map((passkey) => ({
          id: passkey.id,
          name: passkey.name,
          createdAt: Number(passkey.createdAt),
          lastUsedAt: passkey.lastUsedAt === undefined ? null : Number(passkey.lastUsedAt),
        })),
      };
    },
  );

  app.post<{ Body: { password?: string } | undefined }>(
    '/auth/mfa/totp',
    {
      config,
      preValidation,
      schema: { body: schemas.passwordBody, response: { 200: schemas.totpEnrolmentView } },
    },
    async (request) => {
      const { userId } = firstPartyUserOf(request);
      const { secret, otpauthUri } = await upstreams.secondFactors.beginTotpEnrolment({
        userId,
        password: request.body?.password ?? '',
        origin: requestOrigin(request),
      });
      return { secret, otpauthUri };
    },
  );

  app.post<{ Body: { code?: string } | undefined }>(
    '/auth/mfa/totp/confirm',
    {
      config,
      preValidation,
      schema: { body: schemas.codeBody, response: { 200: schemas.recoveryCodesView } },
    },
    async (request) => {
      const { userId } = firstPartyUserOf(request);
      const { recoveryCodes } = await upstreams.secondFactors.confirmTotpEnrolment({
        userId,
        code: request.body?.code ?? '',
        origin: requestOrigin(request),
      });
      return { recoveryCodes };
    },
  );

  app.delete<{ Body: { password?: string } | undefined }>(
    '/auth/mfa/totp',
    { config, preValidation, schema: { body: schemas.passwordBody, response: { 204: schemas.noContent } } },
    async (request, reply) => {
      const { userId } = firstPartyUserOf(request);
      await upstreams.secondFactors.removeTotp({
        userId,
        password: request.body?.password ?? '',
        origin: requestOrigin(request),
      });
      return reply.code(204).send();
    },
  );
}
