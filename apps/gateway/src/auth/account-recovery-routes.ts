import type { FastifyInstance, FastifyRequest } from 'fastify';
import { presentedAccessToken } from '../http/bearer-token.js';
import { requestOrigin } from '../http/request-origin.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import type { Upstreams } from '../plugins/upstreams.js';
import * as schemas from './account-recovery-schemas.js';
import { messageResponse, verifyResponse } from './schemas.js';

export interface AccountRecoveryRoutesOptions {
  upstreams: Upstreams;
  /** Per IP for each route, and per account for the signed-in ones (docs/gateway-routes.md #10). */
  budget: RateLimitBudget;
}

export const FORGOT_PASSWORD_MESSAGE =
  'If the address belongs to an account, a password reset email is on its way';
export const RESET_PASSWORD_MESSAGE = 'Password reset';
export const CHANGE_PASSWORD_MESSAGE = 'Password changed';
export const CHANGE_EMAIL_MESSAGE = 'Confirm the new address with the link mailed to it';

const signedInUsers = new WeakMap<FastifyRequest, { sub: string; sid: string }>();

/**
 * interface.md 4.10: password reset, password and email change, verification by POST.
 * Identity owns the accounts and their tokens; oauth ends the tokens of a user whose password
 * changed (docs/tokens.md #31), called here because identity calls no other service
 * (docs/decisions.md #6).
 */
export async function accountRecoveryRoutes(
  app: FastifyInstance,
  { upstreams, budget }: AccountRecoveryRoutesOptions,
) {
  const perIp = (bucket: string) => ({ rateLimit: { bucket, ...budget } });

  // A preValidation hook, so a missing token is 401 before the body is looked at (as the
  // developer API, http/developer.ts); then the per-account budget.
  const signedIn = (bucket: string) => async (request: FastifyRequest) => {
    const { sub, sid } = await upstreams.tokens.verifyAccessToken({
      ...presentedAccessToken(request),
      requireFirstPartyUser: true,
    });
    await request.server.rateLimiter.consume(`${bucket}-account`, budget, sub);
    signedInUsers.set(request, { sub, sid: sid ?? '' });
  };
  const userOf = (request: FastifyRequest) => signedInUsers.get(request)!;

  app.post<{ Body: { email?: string } }>(
    '/auth/forgot-password',
    {
      config: perIp('forgot-password'),
      schema: { body: schemas.forgotPasswordBody, response: { 200: messageResponse } },
    },
    async (request) => {
      // identity answers alike for every address, its limits included (docs/identity.md #18).
      await upstreams.accountRecovery.requestPasswordReset({
        email: request.body.email ?? '',
        origin: requestOrigin(request),
      });
      return { message: FORGOT_PASSWORD_MESSAGE };
    },
  );

  app.post<{ Body: { token?: string; password?: string } }>(
    '/auth/reset-password',
    {
      config: perIp('reset-password'),
      schema: { body: schemas.resetPasswordBody, response: { 200: messageResponse } },
    },
    async (request) => {
      const { userId } = await upstreams.accountRecovery.resetPassword({
        token: request.body.token ?? '',
        password: request.body.password ?? '',
        origin: requestOrigin(request),
      });
      await upstreams.userTokens.revokeUserTokens({ userId });
      return { message: RESET_PASSWORD_MESSAGE };
    },
  );

  app.post<{ Body: { currentPassword?: string; newPassword?: string } }>(
    '/auth/change-password',
    {
      config: { ...perIp('change-password'), authChallenge: 'Bearer' },
      preValidation: signedIn('change-password'),
      schema: { body: schemas.changePasswordBody, response: { 200: messageResponse } },
    },
    async (request) => {
      const { sub, sid } = userOf(request);
      await upstreams.accountRecovery.changePassword({
        userId: sub,
        keepSessionId: sid,
        currentPassword: request.body.currentPassword ?? '',
        newPassword: request.body.newPassword ?? '',
        origin: requestOrigin(request),
      });
      await upstreams.userTokens.revokeUserTokens({ userId: sub, exceptSessionId: sid });
      return { message: CHANGE_PASSWORD_MESSAGE };
    },
  );

  app.post<{ Body: { newEmail?: string; password?: string } }>(
    '/auth/change-email',
    {
      config: { ...perIp('change-email'), authChallenge: 'Bearer' },
      preValidation: signedIn('change-email'),
      schema: { body: schemas.changeEmailBody, response: { 202: messageResponse } },
    },
    async (request, reply) => {
      await upstreams.accountRecovery.requestEmailChange({
        userId: userOf(request).sub,
        newEmail: request.body.newEmail ?? '',
        password: request.body.password ?? '',
        origin: requestOrigin(request),
      });
      return reply.code(202).send({ message: CHANGE_EMAIL_MESSAGE });
    },
  );

  app.post<{ Body: { token?: string } }>(
    '/auth/verify',
    { schema: { body: schemas.verifyBody, response: { 200: verifyResponse } } },
    async (request) => {
      // The same effect as GET /auth/verify (interface.md 4.2), for the hosted page's button.
      const { email } = await upstreams.identity.verifyEmail({
        token: request.body.token ?? '',
        origin: requestOrigin(request),
      });
      return { message: 'Email verified', email };
    },
  );
}
