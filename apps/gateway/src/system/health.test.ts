import { ServingStatus } from '@authz/proto/health/v1/health';
import { describe, expect, it } from 'vitest';
import { useStubbedGateway } from '../../test/stub-upstreams.js';

// /health (docs/operations.md): Redis pinged by the gateway, the database vouched for by every
// data-owning service; an unreachable service vouches for nothing.
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function health(gateway: ReturnType<typeof useStubbedGateway>) {
  return gateway.app.inject({ method: 'GET', url: '/health' });
}

describe('GET /health with every upstream serving', () => {
  const gateway = useStubbedGateway();

  it('is 200 ok, having asked each data-owning service', async () => {
    const before = Date.now();
    const response = await health(gateway);

    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      status: 'ok',
      timestamp: expect.stringMatching(ISO_TIMESTAMP),
      services: { database: 'connected', cache: 'connected' },
    });
    expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(gateway.calls.map(({ upstream, rpc }) => `${upstream}.${rpc}`).sort()).toEqual([
      'clients.check',
      'identity.check',
      'oauth.check',
      'wallet-bridge.check',
    ]);
  });

  it('is 503 when a service reports its database disconnected', async () => {
    gateway.stubs.health = {
      oauth: {
        check: async () => ({
          status: ServingStatus.NOT_SERVING,
          dependencies: [
            { name: 'database', connected: false },
            { name: 'cache', connected: true },
          ],
        }),
      },
    };

    const response = await health(gateway);

    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: 'unhealthy',
      timestamp: expect.stringMatching(ISO_TIMESTAMP),
      services: { database: 'disconnected', cache: 'connected' },
    });
  });
});

describe('GET /health with an upstream down', () => {
  const gateway = useStubbedGateway({ down: ['clients'] });

  it('is 503 with the database disconnected and the cache connected', async () => {
    const response = await health(gateway);

    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: 'unhealthy',
      timestamp: expect.stringMatching(ISO_TIMESTAMP),
      services: { database: 'disconnected', cache: 'connected' },
    });
  });
});

describe('GET /health with consent-ui down', () => {
  const gateway = useStubbedGateway({ down: ['consent-ui'] });

  it('is 200: consent-ui owns no data', async () => {
    const response = await health(gateway);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'ok',
      services: { database: 'connected', cache: 'connected' },
    });
  });
});
