import { randomUUID } from 'node:crypto';
import { ClientsService, type ClientUse } from '@authz/proto/clients/v1/clients';
import { InternalError, InvalidClientError, NotFoundError } from '@authz/shared/errors';
import { GrpcServer } from '@authz/shared/grpc';
import { testLogger } from '@authz/shared/testing';

export interface FakeClient {
  id: string;
  clientId: string;
  secret?: string;
  method: 'client_secret_basic' | 'client_secret_post' | 'none';
  grantTypes: string[];
  scopes: string[];
  audience: string[];
  redirectUris: string[];
  name: string;
  /** A disabled client neither authenticates nor resolves. */
  enabled: boolean;
}

/**
 * A test double of the ClientsService contract (clients is built elsewhere): fixed clients,
 * shared-secret and public-client authentication only (public ones refused where shared secrets
 * are required), resolution by client_id, every AuthenticateClient and RecordClientUsage counted.
 */
export class FakeClients {
  readonly clients = new Map<string, FakeClient>();
  readonly reportedUses: ClientUse[] = [];
  authenticateCalls = 0;
  private readonly server = new GrpcServer({ serviceName: 'clients', logger: testLogger() });

  addClient(settings: Partial<FakeClient> & Pick<FakeClient, 'method' | 'grantTypes'>): FakeClient {
    const client: FakeClient = {
      id: randomUUID(),
      clientId: randomUUID(),
      scopes: [],
      audience: [],
      redirectUris: [],
      name: 'Fake',
      enabled: true,
      ...settings,
    };
    this.clients.set(client.clientId, client);
    return client;
  }

  async start(): Promise<string> {
    const notHere = async (): Promise<never> => {
      throw new InternalError({ detail: 'not implemented by the test double' });
    };
    this.server.addService(ClientsService, {
      listClients: notHere,
      createClient: notHere,
      getClient: notHere,
      updateClient: notHere,
      deleteClient: notHere,
      regenerateClientSecret: notHere,
      createApiKey: notHere,
      listApiKeys: notHere,
      revokeApiKey: notHere,
      registerClient: notHere,
      authenticateClient: async ({ basic, bodyClientId, bodyClientSecret, sharedSecretOnly }) => {
        this.authenticateCalls += 1;
        const [clientId, method, secret] = basic
          ? [basic.clientId, 'client_secret_basic', basic.clientSecret]
          : [bodyClientId, bodyClientSecret === undefined ? 'none' : 'client_secret_post', bodyClientSecret];
        const client = this.clients.get(clientId ?? '');
        if (!client?.enabled || client.method !== method || client.secret !== secret) {
          throw new InvalidClientError();
        }
        if (sharedSecretOnly && method === 'none') throw new InvalidClientError();
        return { client: wireClient(client) };
      },
      resolveClient: async ({ clientId }) => {
        const client = this.clients.get(clientId);
        if (!client?.enabled) throw new NotFoundError();
        return { client: wireClient(client) };
      },
      recordClientUsage: async ({ uses }) => {
        this.reportedUses.push(...uses);
        return {};
      },
    });
    return `127.0.0.1:${await this.server.listen('127.0.0.1', 0)}`;
  }

  close(): Promise<void> {
    return this.server.close(100);
  }
}

function wireClient(client: FakeClient) {
  return {
    id: client.id,
    clientId: client.clientId,
    grantTypes: client.grantTypes,
    scopes: client.scopes,
    audience: client.audience,
    tokenEndpointAuthMethod: client.method,
    source: 'pre_registered',
    name: client.name,
    redirectUris: client.redirectUris,
    requirePkce: true,
  };
}
