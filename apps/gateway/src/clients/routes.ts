import type { FastifyInstance, FastifyRequest } from 'fastify';
import { developerOf, requireDeveloper } from '../http/developer.js';
import { noStore } from '../http/no-store.js';
import type { RateLimitBudget } from '../plugins/rate-limit.js';
import type { Upstreams } from '../plugins/upstreams.js';
import { toClientSettings, type ClientSettingsBody } from './client-settings.js';
import { toClientView } from './client-view.js';
import * as schemas from './schemas.js';

export interface ClientRoutesOptions {
  upstreams: Upstreams;
  /** interface.md 8: one per-IP budget shared by create and regenerate-secret (and /oauth/register). */
  registerClientBudget: RateLimitBudget;
}

interface ById {
  Params: { id: string };
}

/**
 * interface.md 4.7: client management for the token subject's developer. Paths take the record id or
 * the OAuth client id (docs/decisions.md #22) and answer with and without a trailing slash (the
 * router ignores it). Another developer's client is 404, never 403.
 */
export async function clientRoutes(
  app: FastifyInstance,
  { upstreams, registerClientBudget }: ClientRoutesOptions,
) {
  const preValidation = requireDeveloper(upstreams);
  const authChallenge = 'Bearer' as const;
  const shared = { bucket: 'register-client', ...registerClientBudget };
  const ref = (request: FastifyRequest<ById>) => ({
    owner: developerOf(request),
    id: request.params.id,
  });

  app.get(
    '/api/clients',
    { preValidation, config: { authChallenge }, schema: { response: { 200: schemas.clientList } } },
    async (request) => {
      const { clients } = await upstreams.clients.listClients({ owner: developerOf(request) });
      return { clients: clients.map(toClientView) };
    },
  );

  app.post<{ Body: ClientSettingsBody }>(
    '/api/clients',
    {
      preValidation,
      config: { authChallenge, rateLimit: shared },
      schema: { body: schemas.createClientBody, response: { 201: schemas.clientWithSecret } },
    },
    async (request, reply) => {
      const { client, clientSecret } = await upstreams.clients.createClient({
        owner: developerOf(request),
        settings: toClientSettings({ ...request.body, enabled: undefined }),
      });
      const view = { ...toClientView(client!), ...(clientSecret === undefined ? {} : { clientSecret }) };
      return noStore(reply).code(201).send(view);
    },
  );

  app.get<ById>(
    '/api/clients/:id',
    {
      preValidation,
      config: { authChallenge },
      schema: { params: schemas.clientParams, response: { 200: schemas.clientView } },
    },
    async (request) => toClientView((await upstreams.clients.getClient({ client: ref(request) })).client!),
  );

  app.patch<ById & { Body: ClientSettingsBody }>(
    '/api/clients/:id',
    {
      preValidation,
      config: { authChallenge },
      schema: {
        params: schemas.clientParams,
        body: schemas.updateClientBody,
        response: { 200: schemas.clientView },
      },
    },
    async (request) => {
      const { client } = await upstreams.clients.updateClient({
        client: ref(request),
        settings: toClientSettings(request.body ?? {}),
      });
      return toClientView(client!);
    },
  );

  app.delete<ById>(
    '/api/clients/:id',
    {
      preValidation,
      config: { authChallenge },
      schema: { params: schemas.clientParams, response: { 204: schemas.noContent } },
    },
    async (request, reply) => {
      await upstreams.clients.deleteClient({ client: ref(request) });
      return reply.code(204).send();
    },
  );

  app.post<ById>(
    '/api/clients/:id/regenerate-secret',
    {
      preValidation,
      config: { authChallenge, rateLimit: shared },
      schema: { params: schemas.clientParams, response: { 200: schemas.clientWithSecret } },
    },
    async (request, reply) => {
      const { client, clientSecret } = await upstreams.clients.regenerateClientSecret({
        client: ref(request),
      });
      return noStore(reply).send({ ...toClientView(client!), clientSecret });
    },
  );
}
