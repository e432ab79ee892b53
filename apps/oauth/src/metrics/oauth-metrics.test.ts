import { sampleValue, startMetricsServer, type MetricsServer } from '@authz/shared/metrics';
import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClients, type FakeClient } from '../../test/fake-clients.js';
import { oauthTestSource, startOAuth, type RunningOAuth } from '../../test/oauth-harness.js';

// What the oauth service shows on its own metrics port (docs/decisions.md #24, docs/observability.md):
// RPC latency, its database pool and the client record cache, read over HTTP as Prometheus would.
const environment = useTestEnvironment();
const origin = { ip: '203.0.113.7', userAgent: 'vitest' };
// client_credentials never calls identity; nothing listens there.
const NO_IDENTITY = '127.0.0.1:9';

let clients: FakeClients;
let backend: FakeClient;
let oauth: RunningOAuth;
let metricsServer: MetricsServer;

beforeAll(async () => {
  clients = new FakeClients();
  backend = clients.addClient({
    method: 'client_secret_basic',
    secret: 'backend-secret',
    grantTypes: ['client_credentials'],
  });
  oauth = await startOAuth(oauthTestSource(environment, NO_IDENTITY, await clients.start()));
  await oauth.app.clientInvalidations.whenSubscribed();
  metricsServer = await startMetricsServer(oauth.app.metrics, '127.0.0.1', 0);
});

afterAll(async () => {
  await metricsServer?.close();
  await oauth?.close();
  await clients?.close();
});

const scrape = async () => {
  const response = await fetch(`http://127.0.0.1:${metricsServer.port}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
};

const token = (secret: string) =>
  oauth.tokens.token({
    parameters: [{ name: 'grant_type', value: 'client_credentials' }],
    basic: { clientId: backend.clientId, clientSecret: secret },
    origin,
  });

describe('the oauth metrics port', () => {
  it('shows the client record cache: a miss, then hits; refused secrets are misses', async () => {
    const lookups = (exposition: string, result: string) =>
      sampleValue(exposition, 'client_cache_lookups_total', { service: 'oauth', result });
    const before = await scrape();
    const results = ['hit', 'miss', 'assertion', 'unsubscribed'];
    expect(results.map((result) => lookups(before, result))).toEqual([0, 0, 0, 0]);
    for (let n = 0; n < 3; n += 1) await token('backend-secret');
    await token('wrong').catch(() => undefined);
    const after = await scrape();
    expect(results.map((result) => lookups(after, result))).toEqual([2, 2, 0, 0]);
    expect(clients.authenticateCalls).toBe(2);
  });

  it('times every RPC by method and status code', async () => {
    const handled = (exposition: string, grpc_code: string) =>
      sampleValue(exposition, 'grpc_server_handling_seconds_count', {
        service: 'oauth',
        grpc_service: 'authz.oauth.v1.TokenService',
        grpc_method: 'Token',
        grpc_code,
      }) ?? 0;
    const before = await scrape();
    await token('backend-secret');
    await token('wrong').catch(() => undefined);
    const after = await scrape();
    expect(handled(after, 'OK') - handled(before, 'OK')).toBe(1);
    expect(handled(after, 'UNAUTHENTICATED') - handled(before, 'UNAUTHENTICATED')).toBe(1);
    // Methods never called are exported at zero, so rates exist from the start.
    expect(
      sampleValue(after, 'grpc_server_handling_seconds_count', {
        grpc_service: 'authz.oauth.v1.TokenService',
        grpc_method: 'Revoke',
        grpc_code: 'OK',
      }),
    ).toBe(0);
  });

  it('shows its database pool', async () => {
    const exposition = await scrape();
    expect(sampleValue(exposition, 'db_pool_max_connections', { service: 'oauth' })).toBe(10);
    expect(
      sampleValue(exposition, 'db_pool_connections', { service: 'oauth', state: 'idle' }),
    ).toBeGreaterThan(0);
    expect(sampleValue(exposition, 'db_pool_connections', { service: 'oauth', state: 'in_use' })).toBe(0);
    expect(sampleValue(exposition, 'db_pool_waiting_requests', { service: 'oauth' })).toBe(0);
  });
});
