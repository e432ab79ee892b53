import type { User } from '@authz/proto/identity/v1/identity';
import { InternalError, NotFoundError, UnauthorizedError, ValidationError } from '@authz/shared/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { firstPartyUserOf, requireFirstPartyUser } from '../http/first-party-user.js';
import { requestOrigin } from '../http/request-origin.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import type { Upstreams } from '../plugins/upstreams.js';
import { consumeAccountDeletionBudgets } from './account-deletion-limits.js';
import * as schemas from './account-schemas.js';
import { toUserView } from './user-view.js';

export interface AccountRoutesOptions {
  upstreams: Upstreams;
  accountDeletionBudget: RateLimitBudget;
}

/**
 * interface.md 4.10 account routes, for a live first-party user token: the user's sessions (list and
 * end), the profile (`name`) and account deletion. identity owns the data; oauth revokes what
 * a session or an account held (docs/tokens.md #15, docs/identity.md #19).
 */
export async function accountRoutes(
  app: FastifyInstance,
  { upstreams, accountDeletionBudget }: AccountRoutesOptions,
) {
  const config = { authChallenge: 'Bearer' } as const;
  const preValidation = requireFirstPartyUser(upstreams);

  app.get(
    '/auth/sessions',
    { config, preValidation, schema: { response: { 200: schemas.sessionList } } },
    async (request) => {
      const { userId, sessionId } = firstPartyUserOf(request);
      const { sessions } = await upstreams.accounts.listSessions({
        userId,
        ...(sessionId === undefined ? {} : { currentSessionId: sessionId }),
      });
      return {
        sessions: sessions.map((session) => ({
          id: session.id,
          createdAt: Number(session.createdAt),
          lastSeenAt: Number(session.lastSeenAt),
          userAgent: session.userAgent ?? null,
          current: session.id === sessionId,
        })),
      };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/auth/sessions/:id',
    {
      config,
      preValidation,
      schema: { params: schemas.sessionParams, response: { 204: schemas.noContent } },
    },
    async (request, reply) => {
      const { userId } = firstPartyUserOf(request);
      await upstreams.accountLifecycle.endUserSession({
        userId,
        sessionId: request.params.id.toLowerCase(),
        origin: requestOrigin(request),
      });
      return reply.code(204).send();
    },
  );

  app.delete<{ Body: { password?: string } | undefined }>(
    '/auth/account',
    {
      // The default per-address budget still applies; the deletion budgets are counted once the
      // token names the account (docs/security.md #13).
      config,
      preValidation,
      schema: { body: schemas.deleteAccountBody, response: { 204: schemas.noContent } },
    },
    async (request, reply) => {
      const { userId } = firstPartyUserOf(request);
      await consumeAccountDeletionBudgets(request, accountDeletionBudget, userId);
      await upstreams.accountLifecycle.deleteAccount({
        userId,
        password: request.body?.password ?? '',
        origin: requestOrigin(request),
      });
      return reply.code(204).send();
    },
  );

  app.get(
    '/auth/me',
    { config, preValidation, schema: { response: { 200: schemas.meView } } },
    async (request) => toMeView(await currentUser(upstreams, request)),
  );

  app.patch<{ Body: { name?: string | null } }>(
    '/auth/me',
    { config, preValidation, schema: { body: schemas.updateMeBody, response: { 200: schemas.meView } } },
    async (request) => {
      const { userId } = firstPartyUserOf(request);
      const { name } = request.body;
      if (name === undefined) throw new ValidationError([{ path: 'name', message: 'is required' }]);
      try {
        const { user } = await upstreams.accounts.updateProfile({
          userId,
          ...(name === null ? {} : { name }),
          origin: requestOrigin(request),
        });
        return toMeView(requireUser(user));
      } catch (error) {
        throw unknownUserIsUnauthorized(error);
      }
    },
  );
}

async function currentUser(upstreams: Upstreams, request: FastifyRequest): Promise<User> {
  try {
    return requireUser((await upstreams.identity.getUser({ userId: firstPartyUserOf(request).userId })).user);
  } catch (error) {
    throw unknownUserIsUnauthorized(error);
  }
}

// A valid token whose user is gone (or being deleted) authenticates nobody.
function unknownUserIsUnauthorized(error: unknown): unknown {
  return error instanceof NotFoundError ? new UnauthorizedError({ detail: 'token subject unknown' }) : error;
}

function requireUser(user: User | undefined): User {
  if (!user) throw new InternalError({ detail: 'identity answered without a user' });
  return user;
}

/** interface.md 4.10: interface.md 2.1 User plus `name`, null until set. */
function toMeView(user: User) {
  return { ...toUserView(user), name: user.name ?? null };
}
