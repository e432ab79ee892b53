import { randomBytes } from 'node:crypto';
import { SESSION_COOKIE } from '@authz/shared/protocol';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  completeAuthorization,
  newAppClient,
  newUser,
  PASSWORD,
  REDIRECT_URI,
  redeemCode,
  useCodeFlow,
  type AppClient,
  type CodeFlowContext,
  type TestUser,
} from '../support/code-flow.js';
import { FormBrowser } from '@authz/shared/testing/form-browser';
import { call } from '../support/clients.js';
import { machineClient, newClient } from '../support/tokens.js';
import { hostileRequests, type HostileRequest, type RouteSpec } from './hostile-requests.js';
import { responseProblems, type InvariantContext } from './response-invariants.js';
import { allowedRefusalWrites, installWriteLog, refused, type WriteLog } from '../support/write-log.js';

/** What the generated requests may use: real identifiers and credentials of a signed-in world. */
export interface HostileFixtures {
  issuer: string;
  user: TestUser;
  /** A developer access token (interface.md 5), owner of every client below. */
  developerToken: string;
  /** Access tokens that only POST /auth/logout may spend. */
  logoutTokens: string[];
  /** Confidential (client_secret_basic) with the code flow done: a consent, codes, tokens. */
  webApp: AppClient;
  publicApp: AppClient;
  /** A client that PATCH, DELETE and regenerate-secret may change or remove. */
  victim: AppClient;
  machine: { id: string; clientId: string; clientSecret: string; apiKey: string; apiKeyId: string };
  accessToken: string;
  refreshToken: string;
  idToken: string;
  sessionToken: string;
  csrfToken: string;
  consentId: string;
}

export interface HostileContext {
  readonly flow: CodeFlowContext;
  readonly fixtures: HostileFixtures;
  /** Runs `numRuns` generated requests against `route`; fails on the first broken invariant. */
  check(route: RouteSpec): Promise<void>;
  /** Every database write of the services since the last look (write-log.ts). */
  readonly writeLog: WriteLog;
}

const SECRET_HASH_KEY = randomBytes(32).toString('hex');
const KEY_ENCRYPTION_KEY = randomBytes(32).toString('hex');
/** Replays a failed run: the seed fast-check printed (docs/security.md #2). */
const SEED =
  process.env.HOSTILE_INPUT_SEED === undefined ? undefined : Number(process.env.HOSTILE_INPUT_SEED);
/** The gateway's default BODY_LIMIT (config/env.ts). */
const BODY_LIMIT = 100 * 1024;

/**
 * Hostile-input fixture of one test file: the whole suite with rate limits off (every request
 * comes from one IP and must reach the route's own checks), known keys, no timed background
 * writes (client usage reports, outbox polling), a signed-in user who went through the code
 * flow, and a log of every database write (write-log.ts). `extra` adds settings (the wallet
 * suite turns wallet federation on).
 */
export function useHostileSuite(
  extra: { gatewayEnv?: Record<string, string>; serviceEnv?: Record<string, string> } = {},
): HostileContext {
  const flow = useCodeFlow(
    { ...extra.gatewayEnv, RATE_LIMIT_ENABLED: 'false' },
    {
      ...extra.serviceEnv,
      SECRET_HASH_KEY,
      KEY_ENCRYPTION_KEY,
      CLIENT_USAGE_FLUSH_INTERVAL_MS: '3600000',
      OUTBOX_POLL_INTERVAL_MS: '3600000',
      // A session's coalesced last use (docs/identity.md #20) is a write the page reading the
      // session did not ask for: none within a run.
      SESSION_SEEN_INTERVAL: '86400',
    },
  );
  let fixtures: HostileFixtures | undefined;
  let sql: pg.Client | undefined;
  let writes: WriteLog | undefined;

  beforeAll(async () => {
    fixtures = await createFixtures(flow);
    sql = new pg.Client({ connectionString: flow.databaseUrl });
    await sql.connect();
    writes = await installWriteLog(sql);
    await writes.settle();
  });

  afterAll(async () => {
    await sql?.end();
  });

  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useHostileSuite(): available once beforeAll has run');
    return value;
  };

  return {
    flow,
    get fixtures() {
      return ready(fixtures);
    },
    get writeLog() {
      return ready(writes);
    },
    async check(route) {
      const world = ready(fixtures);
      const log = ready(writes);
      const context = invariantContext(world);
      await fc.assert(
        fc.asyncProperty(hostileRequests(route, { bodyLimit: BODY_LIMIT }), async (request) => {
          const problems = await send(flow, log, context, request);
          expect(problems, `${route.name}: ${summary(request)}`).toEqual([]);
        }),
        { numRuns: route.numRuns, endOnFailure: true, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
    },
  };
}

/** One request through the gateway in-process (real gRPC, Postgres, Redis), and what it broke. */
async function send(
  flow: CodeFlowContext,
  writes: WriteLog,
  context: InvariantContext,
  request: HostileRequest,
): Promise<string[]> {
  const response = await flow.suite.gateway.app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: request.headers,
    ...(request.payload === undefined ? {} : { payload: request.payload }),
  });
  const path = request.url.split('?')[0]!;
  const observed = {
    method: request.method,
    path,
    status: response.statusCode,
    headers: response.headers,
    body: response.body,
  };
  const problems = responseProblems(observed, context);
  const written = await writes.since();
  if (refused(observed) && !allowedRefusalWrites(observed, written)) {
    problems.push(`a refused request wrote ${written.join(', ')}`);
  }
  if (written.length > 0) await writes.settle();
  return problems;
}

function invariantContext(world: HostileFixtures): InvariantContext {
  return {
    issuer: world.issuer,
    redirectUris: [REDIRECT_URI],
    secrets: [
      SECRET_HASH_KEY,
      KEY_ENCRYPTION_KEY,
      world.user.password,
      world.developerToken,
      ...world.logoutTokens,
      world.webApp.clientSecret!,
      world.victim.clientSecret!,
      world.machine.clientSecret,
      world.machine.apiKey,
      world.accessToken,
      world.refreshToken,
      world.idToken,
      world.sessionToken,
    ],
  };
}

/** A failing request, readable in the assertion message (fast-check also prints it shrunk). */
function summary(request: HostileRequest): string {
  const payload =
    request.payload === undefined ? '' : ` body=${JSON.stringify(request.payload.slice(0, 200))}`;
  return `${request.method} ${request.url.slice(0, 300)} headers=${JSON.stringify(request.headers)}${payload}`;
}

async function createFixtures(flow: CodeFlowContext): Promise<HostileFixtures> {
  const { suite } = flow;
  const user = await newUser(flow);
  const [webApp, publicApp, victim] = await Promise.all([
    newAppClient(flow),
    newAppClient(flow, { tokenEndpointAuthMethod: 'none' }),
    newAppClient(flow),
  ]);
  const machine = await newClient(suite, flow.developer, machineClient);
  const key = await call<{ id: string; key: string }>(suite, 'POST', `/api/clients/${machine.id}/api-keys`, {
    token: flow.developer,
    body: { name: 'hostile input' },
  });
  expect(key.status).toBe(201);

  const browser = new FormBrowser();
  const authorized = await completeAuthorization(flow, browser, user, {
    client: webApp,
    scope: 'openid email',
  });
  const tokens = await redeemCode(flow, webApp, authorized.code!, authorized.verifier);
  expect(tokens.status).toBe(200);
  const consents = await browser.get(`${suite.baseUrl}/consents/`);
  const { consents: list, csrfToken } = JSON.parse(consents.text) as {
    consents: { id: string }[];
    csrfToken: string;
  };

  const logoutTokens = await Promise.all(
    [1, 2, 3].map(async () => {
      const login = await call<{ access_token: string }>(suite, 'POST', '/auth/login', {
        body: { email: user.email, password: PASSWORD },
      });
      return login.body.access_token;
    }),
  );
  return {
    issuer: suite.baseUrl,
    user,
    developerToken: flow.developer,
    logoutTokens,
    webApp,
    publicApp,
    victim,
    machine: {
      id: machine.id,
      clientId: machine.clientId,
      clientSecret: machine.clientSecret!,
      apiKey: key.body.key,
      apiKeyId: key.body.id,
    },
    accessToken: tokens.body.access_token as string,
    refreshToken: tokens.body.refresh_token as string,
    idToken: tokens.body.id_token as string,
    sessionToken: browser.jar.get(SESSION_COOKIE)!,
    csrfToken,
    consentId: list[0]!.id,
  };
}
