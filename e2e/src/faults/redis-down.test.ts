import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { introspect } from '../support/token-management.js';
import { getJson, postJson } from '../support/http.js';
import { PrivateRedisServer } from '../support/redis-server.js';
import { startSuite, type Suite } from '../support/suite.js';
import { SERVICE_UNAVAILABLE, TEMPORARILY_UNAVAILABLE } from './fault-helpers.js';
import { clientCredentialsToken, countStatuses, machineClient, runLoad } from '../support/load.js';

// Redis down, per feature (docs/operations.md "Fault behaviour"). /health answering 503 with
// cache disconnected, and recovering, is shown by system/health-cache.test.ts; this file shows
// what each feature does meanwhile: rate limits fail open (docs/decisions.md #23), every check of the
// access-token deny-list fails closed with 503, and all of it heals once Redis is back, with no
// restart of anything.
const BUDGET = 20;
const environment = useTestEnvironment();
let redis: PrivateRedisServer;
let suite: Suite;

beforeAll(async () => {
  redis = await PrivateRedisServer.start();
  suite = await startSuite({
    databaseUrl: environment.databaseUrl,
    redisUrl: redis.url,
    redisKeyPrefix: environment.redisPrefix,
    // The token endpoint's budget is per client, in oauth (docs/security.md #11); an hour's
    // window keeps the whole test inside one window.
    serviceEnv: { CLIENT_RATE_LIMIT: String(BUDGET), CLIENT_RATE_WINDOW: '3600' },
  });
});

afterAll(async () => {
  await suite?.close();
  await redis?.stop();
});

it(
  'fails open on rate limits and closed on revocation checks while Redis is down, then recovers',
  { timeout: 60_000 },
  async () => {
    const { developer, headers } = await machineClient(suite);
    const token = () => clientCredentialsToken(suite, headers);
    const issued = await token();
    expect(issued.status).toBe(200);
    const accessToken = issued.body.access_token as string;
    // A second client, whose budget the load below leaves untouched: the first one's may still
    // be spent after the outage, or not, as counts that could not reach Redis are dropped
    // (fail open, docs/decisions.md #23).
    const other = await machineClient(suite);
    const otherIssued = await clientCredentialsToken(suite, other.headers);
    expect(otherIssued.status).toBe(200);
    const otherToken = otherIssued.body.access_token as string;

    // Redis up: the per-client budget of the token endpoint is enforced.
    expect(countStatuses(await runLoad(BUDGET, 1, token))).toEqual({ 200: BUDGET - 1, 429: 1 });

    await redis.stop();

    // Rate limits fail open: twice the budget, every request answered by the token endpoint.
    expect(countStatuses(await runLoad(2 * BUDGET, 2, token))).toEqual({ 200: 2 * BUDGET });

    // The deny-list cannot be read, so no access token is trusted: introspection, UserInfo and
    // the developer API answer 503 rather than call a possibly revoked token valid.
    const introspected = await introspect(suite, [['token', accessToken]], headers);
    expect(introspected.status).toBe(503);
    expect(introspected.body).toEqual(TEMPORARILY_UNAVAILABLE);
    expect(introspected.headers.get('cache-control')).toBe('no-store');
    const userInfo = await getJson(`${suite.baseUrl}/oauth/userinfo`, {
      authorization: `Bearer ${developer.token}`,
    });
    expect(userInfo).toMatchObject({ status: 503, body: TEMPORARILY_UNAVAILABLE });
    expect(userInfo.headers.get('www-authenticate')).toBeNull();
    const clients = await getJson(`${suite.baseUrl}/api/clients/`, {
      authorization: `Bearer ${developer.token}`,
    });
    expect(clients).toMatchObject({ status: 503, body: SERVICE_UNAVAILABLE });
    // So is logout, which writes to the deny-list.
    const logout = await postJson(
      `${suite.baseUrl}/auth/logout`,
      {},
      {
        authorization: `Bearer ${developer.token}`,
      },
    );
    expect(logout).toMatchObject({ status: 503, body: SERVICE_UNAVAILABLE });

    await redis.start();

    // The same clients reconnect on their own: introspection answers again.
    await expect
      .poll(async () => (await introspect(suite, [['token', otherToken]], other.headers)).status, {
        timeout: 15_000,
        interval: 250,
      })
      .toBe(200);
    expect((await introspect(suite, [['token', otherToken]], other.headers)).body).toMatchObject({
      active: true,
    });
    expect(
      (await getJson(`${suite.baseUrl}/api/clients/`, { authorization: `Bearer ${developer.token}` })).status,
    ).toBe(200);
    // And the budget is enforced again: the second client's requests since the recovery are
    // counted, so it meets the budget within one budget's worth.
    const afterRecovery = countStatuses(
      await runLoad(BUDGET, 1, () => clientCredentialsToken(suite, other.headers)),
    );
    expect(afterRecovery[429]).toBeGreaterThanOrEqual(1);
  },
);
