import { InvalidClientError } from '@authz/shared/errors';
import { sampleValue } from '@authz/shared/metrics';
import { Registry } from 'prom-client';
import { describe, expect, it, vi } from 'vitest';
import { createClientCacheLookups } from '../metrics/client-cache-metrics.js';
import type { AuthenticatedClient } from '../protocol/client-authentication/authenticated-client.js';
import type {
  ClientsPort,
  PresentedClientCredentials,
} from '../protocol/client-authentication/clients-port.js';
import { AuthenticationCache } from './authentication-cache.js';
import { withAuthenticationCache } from './cached-clients.js';

const backend: AuthenticatedClient = {
  id: '00000000-0000-4000-8000-000000000001',
  clientId: 'backend',
  name: 'Backend',
  source: 'pre_registered',
  method: 'client_secret_basic',
  grantTypes: ['client_credentials'],
  scopes: [],
  audienceList: [],
  audience: 'backend',
  isAgent: false,
  agentScopeModes: [],
  redirectUris: [],
  requirePkce: true,
  postLogoutRedirectUris: [],
  backchannelLogoutSessionRequired: false,
  idTokenSignedResponseAlg: 'EdDSA',
  requirePushedAuthorizationRequests: false,
  dpopBoundAccessTokens: false,
};

const basic = (clientSecret: string): PresentedClientCredentials => ({
  basic: { clientId: 'backend', clientSecret },
  grantType: 'client_credentials',
  sharedSecretOnly: false,
});

const assertion: PresentedClientCredentials = {
  bodyClientId: 'backend',
  clientAssertionType: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
  clientAssertion: 'header.payload.signature',
  grantType: 'client_credentials',
  sharedSecretOnly: false,
};

/** The cached port over a clients service that accepts the secret "right", and its counts. */
function setUp() {
  const registry = new Registry();
  const cache = new AuthenticationCache();
  const authenticateClient = vi.fn(async (credentials: PresentedClientCredentials) => {
    if (credentials.basic && credentials.basic.clientSecret !== 'right') throw new InvalidClientError();
    return backend;
  });
  const remote = { authenticateClient } as unknown as ClientsPort;
  const clients = withAuthenticationCache(remote, cache, createClientCacheLookups(registry));
  const lookups = async () => {
    const exposition = await registry.metrics();
    return Object.fromEntries(
      ['hit', 'miss', 'assertion', 'unsubscribed'].map((result) => [
        result,
        sampleValue(exposition, 'client_cache_lookups_total', { result }),
      ]),
    );
  };
  return { cache, clients, authenticateClient, lookups };
}

describe('client_cache_lookups_total (docs/observability.md)', () => {
  it('exports every result at zero before any authentication', async () => {
    expect(await setUp().lookups()).toEqual({ hit: 0, miss: 0, assertion: 0, unsubscribed: 0 });
  });

  it('counts a first authentication as a miss and the returning ones as hits', async () => {
    const { cache, clients, authenticateClient, lookups } = setUp();
    cache.activate();
    for (let n = 0; n < 3; n += 1) expect(await clients.authenticateClient(basic('right'))).toBe(backend);
    expect(authenticateClient).toHaveBeenCalledTimes(1);
    expect(await lookups()).toEqual({ hit: 2, miss: 1, assertion: 0, unsubscribed: 0 });
  });

  it('counts refused credentials as misses: failures are never cached', async () => {
    const { cache, clients, lookups } = setUp();
    cache.activate();
    for (let n = 0; n < 2; n += 1) {
      await expect(clients.authenticateClient(basic('wrong'))).rejects.toBeInstanceOf(InvalidClientError);
    }
    expect(await lookups()).toEqual({ hit: 0, miss: 2, assertion: 0, unsubscribed: 0 });
  });

  it('counts authentications the cache may not answer: while unsubscribed, and single-use assertions', async () => {
    const { cache, clients, authenticateClient, lookups } = setUp();
    await clients.authenticateClient(basic('right'));
    cache.activate();
    await clients.authenticateClient(assertion);
    await clients.authenticateClient(assertion);
    expect(authenticateClient).toHaveBeenCalledTimes(3);
    expect(await lookups()).toEqual({ hit: 0, miss: 0, assertion: 2, unsubscribed: 1 });
  });
});
