import { useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getJson, postJson } from '../support/http.js';
import type { TcpProxy } from '../support/tcp-proxy.js';
import { startSuite, type Suite } from '../support/suite.js';
import { FIRST_PARTY_CLIENT_ID } from '@authz/oauth';
import { requestToken } from '../support/tokens.js';
import { SERVICE_UNAVAILABLE, TEMPORARILY_UNAVAILABLE, databaseBehindProxy } from './fault-helpers.js';
import { clientCredentialsToken, machineClient } from '../support/load.js';

// Postgres unreachable (a TCP proxy in front of this file's database, cut and restored): every
// request that needs the database answers at once with the 503 envelope of its route (spec
// section 7, docs/operations.md "Fault behaviour"), nothing crashes, and the same processes
// serve again once the database is back. /health itself: system/health-database.test.ts.
const environment = useTestEnvironment();
let proxy: TcpProxy;
let suite: Suite;

beforeAll(async () => {
  const database = await databaseBehindProxy(environment);
  proxy = database.proxy;
  suite = await startSuite({
    databaseUrl: database.databaseUrl,
    redisUrl: environment.redisUrl,
    redisKeyPrefix: environment.redisPrefix,
    // Sign-ins are polled until the database is back: the login budget is not under test.
    gatewayEnv: { LOGIN_RATE_LIMIT: '1000' },
  });
});

afterAll(async () => {
  await suite?.close();
  await proxy?.close();
});

const password = 'amber-Falcon-meadow-27';
const login = (email: string) => postJson(`${suite.baseUrl}/auth/login`, { email, password });
const register = (email: string) => postJson(`${suite.baseUrl}/auth/register`, { email, password });
const refresh = (refreshToken: string) =>
  requestToken(suite, [
    ['grant_type', 'refresh_token'],
    ['client_id', FIRST_PARTY_CLIENT_ID],
    ['refresh_token', refreshToken],
  ]);

it('answers 503 envelopes while Postgres is unreachable, never crashes, and recovers', async () => {
  const email = `pg-outage-${Date.now()}@example.com`;
  expect((await register(email)).status).toBe(201);
  const signedIn = await login(email);
  expect(signedIn.status).toBe(200);
  const refreshToken = signedIn.body.refresh_token as string;
  // A client already used (oauth holds its record) and one never used.
  const used = await machineClient(suite);
  expect((await clientCredentialsToken(suite, used.headers)).status).toBe(200);
  const unused = await machineClient(suite);

  proxy.cut();

  const started = Date.now();
  expect(await login(email)).toMatchObject({ status: 503, body: SERVICE_UNAVAILABLE });
  expect(await register(`pg-outage-new-${Date.now()}@example.com`)).toMatchObject({
    status: 503,
    body: SERVICE_UNAVAILABLE,
  });
  expect(await refresh(refreshToken)).toMatchObject({ status: 503, body: TEMPORARILY_UNAVAILABLE });
  expect(await clientCredentialsToken(suite, unused.headers)).toMatchObject({
    status: 503,
    body: TEMPORARILY_UNAVAILABLE,
  });
  // Answered at once, not after a deadline: a refused connection fails fast.
  expect(Date.now() - started).toBeLessThan(8000);
  // Issuing a client_credentials token writes nothing, and oauth already holds this client's
  // record (docs/decisions.md #28: bounded by its expiry), so that grant keeps working.
  expect((await clientCredentialsToken(suite, used.headers)).status).toBe(200);
  // Nothing crashed: the gateway and every service still answer.
  expect((await getJson(`${suite.baseUrl}/`)).status).toBe(200);

  proxy.restore();

  await expect.poll(async () => (await login(email)).status, { timeout: 15_000, interval: 250 }).toBe(200);
  expect((await register(`pg-back-${Date.now()}@example.com`)).status).toBe(201);
  // The refresh token refused during the outage was never spent: it still rotates.
  expect((await refresh(refreshToken)).status).toBe(200);
  expect((await clientCredentialsToken(suite, unused.headers)).status).toBe(200);
});
