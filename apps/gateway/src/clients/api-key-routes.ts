import type { FastifyInstance } from 'fastify';
import { developerOf, requireDeveloper } from '../http/developer.js';
import { noStore } from '../http/no-store.js';
import type { Upstreams } from '../plugins/upstreams.js';
import { toApiKeyView } from './client-view.js';
import * as schemas from './schemas.js';

/**
 * interface.md 4.8: API keys of a client the caller owns (same 404 rule as 4.7). `:id` is the record
 * id or the OAuth client id (docs/decisions.md #22); keys only for development clients (#14).
 */
export async function apiKeyRoutes(app: FastifyInstance, { upstreams }: { upstreams: Upstreams }) {
  const preValidation = requireDeveloper(upstreams);
  const config = { authChallenge: 'Bearer' as const };

  app.post<{ Params: { id: string }; Body: { name: string } }>(
    '/api/clients/:id/api-keys',
    {
      preValidation,
      config,
      schema: {
        params: schemas.clientParams,
        body: schemas.createApiKeyBody,
        response: { 201: schemas.apiKeyWithKey },
      },
    },
    async (request, reply) => {
      const { apiKey, key } = await upstreams.clients.createApiKey({
        client: { owner: developerOf(request), id: request.params.id },
        name: request.body.name,
      });
      // The plaintext key is shown once and must not be cached (like a secret, interface.md 2.4).
      return noStore(reply)
        .code(201)
        .send({ ...toApiKeyView(apiKey!), key });
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/clients/:id/api-keys',
    {
      preValidation,
      config,
      schema: { params: schemas.clientParams, response: { 200: schemas.apiKeyList } },
    },
    async (request) => {
      const { apiKeys } = await upstreams.clients.listApiKeys({
        client: { owner: developerOf(request), id: request.params.id },
      });
      return { apiKeys: apiKeys.map(toApiKeyView) };
    },
  );

  app.delete<{ Params: { id: string; keyId: string } }>(
    '/api/clients/:id/api-keys/:keyId',
    {
      preValidation,
      config,
      schema: { params: schemas.apiKeyParams, response: { 200: schemas.apiKeyView } },
    },
    async (request) => {
      const { apiKey } = await upstreams.clients.revokeApiKey({
        client: { owner: developerOf(request), id: request.params.id },
        keyId: request.params.keyId,
      });
      return toApiKeyView(apiKey!);
    },
  );
}
