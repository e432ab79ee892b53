import type { ClientsService } from '@authz/proto/clients/v1/clients';
import type { ServiceImplementation } from '@authz/shared/grpc';
import { toApiKeyMessage } from '../api-keys/api-key-view.js';
import { authenticateClient } from '../authentication/authenticate-client.js';
import { toAuthenticatedClientMessage } from '../authentication/authenticated-client-view.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../api-keys/manage-api-keys.js';
import { toClientMessage } from '../clients/client-view.js';
import {
  createClient,
  deleteClient,
  getClient,
  listClients,
  regenerateClientSecret,
  updateClient,
} from '../clients/manage-clients.js';
import { registerClient } from '../registration/register-client.js';
import { toRegistrationMessage } from '../registration/registration-view.js';
import type { Registry } from '../registry.js';
import { resolveClient } from '../resolution/resolve-client.js';
import { recordClientUsage } from '../usage/record-client-usage.js';

/** The gRPC face of clients: thin translations to the feature logic (docs/conventions.md #2). */
export function clientsServiceImplementation(
  registry: Registry,
): ServiceImplementation<typeof ClientsService> {
  return {
    async listClients(request) {
      return { clients: (await listClients(registry, request.owner)).map(toClientMessage) };
    },
    async createClient(request) {
      const { client, clientSecret } = await createClient(registry, request.owner, request.settings);
      return { client: toClientMessage(client), ...(clientSecret ? { clientSecret } : {}) };
    },
    async getClient(request) {
      return { client: toClientMessage(await getClient(registry, request.client)) };
    },
    async updateClient(request) {
      return { client: toClientMessage(await updateClient(registry, request.client, request.settings)) };
    },
    async deleteClient(request) {
      await deleteClient(registry, request.client);
      return {};
    },
    async regenerateClientSecret(request) {
      const { client, clientSecret } = await regenerateClientSecret(registry, request.client);
      return { client: toClientMessage(client), clientSecret };
    },
    async createApiKey(request) {
      const { client, apiKey, key } = await createApiKey(registry, request.client, request.name);
      return { apiKey: toApiKeyMessage(apiKey, client.clientId), key };
    },
    async listApiKeys(request) {
      const { client, apiKeys } = await listApiKeys(registry, request.client);
      return { apiKeys: apiKeys.map((key) => toApiKeyMessage(key, client.clientId)) };
    },
    async revokeApiKey(request) {
      const { client, apiKey } = await revokeApiKey(registry, request.client, request.keyId);
      return { apiKey: toApiKeyMessage(apiKey, client.clientId) };
    },
    async registerClient(request) {
      return toRegistrationMessage(await registerClient(registry, request.metadataJson));
    },
    async authenticateClient(request) {
      const { client, apiKeyId } = await authenticateClient(registry, {
        ...(request.bodyClientId === undefined ? {} : { bodyClientId: request.bodyClientId }),
        ...(request.bodyClientSecret === undefined ? {} : { bodyClientSecret: request.bodyClientSecret }),
        ...(request.basic ? { basic: request.basic } : {}),
        ...(request.clientAssertionType === undefined
          ? {}
          : { clientAssertionType: request.clientAssertionType }),
        ...(request.clientAssertion === undefined ? {} : { clientAssertion: request.clientAssertion }),
        grantType: request.grantType,
        sharedSecretOnly: request.sharedSecretOnly,
      });
      return { client: toAuthenticatedClientMessage(client, apiKeyId) };
    },
    async recordClientUsage(request) {
      await recordClientUsage(registry, request.uses);
      return {};
    },
    async resolveClient(request) {
      return { client: toAuthenticatedClientMessage(await resolveClient(registry, request.clientId)) };
    },
  };
}
