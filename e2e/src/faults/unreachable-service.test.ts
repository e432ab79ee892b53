import { spareTestPort, testLogger, useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGatewayApp, loadGatewayEnv, type GatewayApp } from '@authz/gateway';
import { HEALTH_DEADLINE_MS } from '@authz/gateway';
import { getJson, postJson, postForm, type JsonResponse } from '../support/http.js';
import {
  SERVICE_UNAVAILABLE,
  TEMPORARILY_UNAVAILABLE,
  UPSTREAM_TIMEOUT,
  startBlackHole,
} from './fault-helpers.js';

// A service the gateway cannot reach never hangs a request (docs/operations.md "Fault
// behaviour"): every gRPC call carries a deadline (5 s by default, 1 s for /health), a refused
// connection fails at once, and the answer is the route's error envelope (interface.md 7).
const environment = useTestEnvironment();
const CALL_DEADLINE_MS = 5000;
/** Scheduling slack on a loaded two-core machine, on top of a deadline. */
const MARGIN_MS = 1500;

const SERVICES = ['IDENTITY', 'OAUTH', 'CLIENTS', 'CONSENT_UI', 'WALLET_BRIDGE'] as const;

/** The gateway alone, every service it calls at `address`. */
async function gatewayCalling(address: string): Promise<{ gateway: GatewayApp; baseUrl: string }> {
  const gateway = await buildGatewayApp({
    env: loadGatewayEnv({
      REDIS_URL: environment.redisUrl,
      REDIS_KEY_PREFIX: environment.redisPrefix,
      JWT_ISSUER: 'http://127.0.0.1:3000',
      ...Object.fromEntries(SERVICES.map((name) => [`${name}_GRPC_URL`, address])),
    }),
    logger: testLogger(),
  });
  const baseUrl = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  return { gateway, baseUrl };
}

async function timed<T>(request: Promise<T>): Promise<T & { elapsedMs: number }> {
  const started = Date.now();
  const answer = await request;
  return { ...answer, elapsedMs: Date.now() - started };
}

const requests = (baseUrl: string) => ({
  token: () =>
    timed(
      postForm(
        `${baseUrl}/oauth/token`,
        { grant_type: 'client_credentials' },
        { authorization: 'Basic YTpi' },
      ),
    ),
  register: () =>
    timed(
      postJson(`${baseUrl}/auth/register`, { email: 'someone@example.com', password: 'amber-Falcon-31' }),
    ),
  health: () => timed(getJson(`${baseUrl}/health`)),
});

const UNHEALTHY = {
  status: 'unhealthy',
  timestamp: expect.any(String),
  services: { database: 'disconnected', cache: 'connected' },
};

function expectAnswer(answer: JsonResponse & { elapsedMs: number }, status: number, body: unknown) {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body });
}

describe('a service port where nothing listens', () => {
  let gateway: GatewayApp;
  let call: ReturnType<typeof requests>;

  beforeAll(async () => {
    const started = await gatewayCalling(`127.0.0.1:${await spareTestPort()}`);
    gateway = started.gateway;
    call = requests(started.baseUrl);
  });
  afterAll(() => gateway?.close());

  it('answers the 503 envelope at once: the connection is refused before any call is sent', async () => {
    const [token, register, health] = await Promise.all([call.token(), call.register(), call.health()]);
    expectAnswer(token, 503, TEMPORARILY_UNAVAILABLE);
    expectAnswer(register, 503, SERVICE_UNAVAILABLE);
    expectAnswer(health, 503, UNHEALTHY);
    for (const answer of [token, register, health]) expect(answer.elapsedMs).toBeLessThan(MARGIN_MS);
  });
});

describe('a service that accepts connections and never answers', () => {
  let gateway: GatewayApp;
  let call: ReturnType<typeof requests>;
  let blackHole: Awaited<ReturnType<typeof startBlackHole>>;

  beforeAll(async () => {
    blackHole = await startBlackHole();
    const started = await gatewayCalling(blackHole.address);
    gateway = started.gateway;
    call = requests(started.baseUrl);
  });
  afterAll(async () => {
    await gateway?.close();
    await blackHole?.close();
  });

  it('answers when the deadline passes, never later: 503 on OAuth routes, 504 on the JSON API', async () => {
    const [token, register, health] = await Promise.all([call.token(), call.register(), call.health()]);
    // RFC 6749 has no timeout error: an OAuth route says temporarily_unavailable (docs/errors.md).
    expectAnswer(token, 503, TEMPORARILY_UNAVAILABLE);
    expectAnswer(register, 504, UPSTREAM_TIMEOUT);
    expectAnswer(health, 503, UNHEALTHY);
    for (const answer of [token, register]) {
      expect(answer.elapsedMs).toBeGreaterThanOrEqual(CALL_DEADLINE_MS - 100);
      expect(answer.elapsedMs).toBeLessThan(CALL_DEADLINE_MS + MARGIN_MS);
    }
    expect(health.elapsedMs).toBeGreaterThanOrEqual(HEALTH_DEADLINE_MS - 100);
    expect(health.elapsedMs).toBeLessThan(HEALTH_DEADLINE_MS + MARGIN_MS);
  });
});
