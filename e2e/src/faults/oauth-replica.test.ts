import { spareTestPort, useTestEnvironment } from '@authz/shared/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSuite, type Suite } from '../support/suite.js';
import { AppProcess, TEMPORARILY_UNAVAILABLE, oauthProcessEnv } from './fault-helpers.js';
import {
  clientCredentialsToken,
  countStatuses,
  machineClient,
  runLoad,
  type Answer,
} from '../support/load.js';

// docs/decisions.md #26, #27: the gateway balances over two oauth replicas; when one goes away it
// moves to the other, and grpc-js retries transparently only the calls that never reached a
// server. Replica A is the suite's own (in this process); B is a real `node dist/main.js`
// process, stopped with SIGTERM or killed with SIGKILL under a steady token load.
//
// B issues tokens with ACCESS_TOKEN_TTL 899 instead of 900, so expires_in tells which replica
// answered, and the test can prove B really took a share of the load before it went away.
const FROM_A = 900;
const FROM_B = 899;
const LOAD = { total: 400, concurrency: 8 };
/** A replica start, a reconnect backoff and a load, on a busy two-core machine. */
const SLOW = { timeout: 90_000 };

const environment = useTestEnvironment();
let suite: Suite;
let replicaB: AppProcess | undefined;
let portB: number;
let headers: Record<string, string>;

async function startReplicaB(): Promise<void> {
  replicaB = new AppProcess('oauth', {
    ...(await oauthProcessEnv(suite.oauthEnv, portB)),
    ACCESS_TOKEN_TTL: String(FROM_B),
  });
  await replicaB.waitForMessage('service started');
}

const token = () => clientCredentialsToken(suite, headers);
const expiresIn = (answer: Answer) => answer.body.expires_in;

/** Until B's connection is up again at the gateway (grpc-js reconnects with a backoff). */
async function untilBothReplicasAnswer(): Promise<void> {
  await expect
    .poll(async () => (await runLoad(20, 4, token)).some((answer) => expiresIn(answer) === FROM_B), {
      // grpc-js's reconnect backoff grows while B is down (1 s, x1.6 per attempt).
      timeout: 40_000,
      interval: 200,
    })
    .toBe(true);
}

beforeAll(async () => {
  portB = await spareTestPort();
  suite = await startSuite({
    databaseUrl: environment.databaseUrl,
    redisUrl: environment.redisUrl,
    redisKeyPrefix: environment.redisPrefix,
    extraOAuthAddresses: [`127.0.0.1:${portB}`],
    // Thousands of tokens from one address: the per-IP budget is not what is tested here.
    gatewayEnv: { RATE_LIMIT_ENABLED: 'false' },
  });
  await startReplicaB();
  ({ headers } = await machineClient(suite));
});

afterAll(async () => {
  await replicaB?.stop();
  await suite?.close();
});

it('spreads the token load over both replicas', SLOW, async () => {
  await untilBothReplicasAnswer();
  const answers = await runLoad(100, LOAD.concurrency, token);
  expect(countStatuses(answers)).toEqual({ 200: 100 });
  const fromB = answers.filter((answer) => expiresIn(answer) === FROM_B).length;
  // Round robin: about half each; far from all-or-nothing either way.
  expect(fromB).toBeGreaterThan(10);
  expect(fromB).toBeLessThan(90);
});

it('loses no request when a replica is stopped gracefully (SIGTERM) under load', SLOW, async () => {
  await untilBothReplicasAnswer();
  let stopped: Promise<unknown> | undefined;
  const answers = await runLoad(LOAD.total, LOAD.concurrency, token, (answer, answered) => {
    if (answered === 100) {
      replicaB!.signal('SIGTERM');
      stopped = replicaB!.exited;
    }
  });
  // B drained its in-flight calls and exited cleanly; calls that met its GOAWAY were refused
  // before any handler ran, and grpc-js sent them to A.
  expect(await stopped).toEqual({ code: 0, signal: null });
  expect(countStatuses(answers)).toEqual({ 200: LOAD.total });
  expect(answers.slice(0, 100).some((answer) => expiresIn(answer) === FROM_B)).toBe(true);
  expect(answers.slice(-100).every((answer) => expiresIn(answer) === FROM_A)).toBe(true);
});

it(
  'moves to the other replica when one is killed (SIGKILL); only calls in flight on it fail, with 503',
  SLOW,
  async () => {
    await startReplicaB();
    await untilBothReplicasAnswer();
    let killedAt = 0;
    const answers = await runLoad(LOAD.total, LOAD.concurrency, token, (answer, answered) => {
      if (answered === 100) {
        replicaB!.signal('SIGKILL');
        killedAt = Date.now();
      }
    });
    expect(await replicaB!.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // Every request was answered, by 200 or by the documented 503 (docs/operations.md).
    const failed = answers.filter((answer) => answer.status !== 200);
    for (const answer of failed) expect(answer).toMatchObject({ status: 503, body: TEMPORARILY_UNAVAILABLE });
    // The window: the calls in flight on B when it died, at most one per connection of the load,
    // all failing together as the gateway sees the connection close. Nothing sent once that is
    // seen fails: later calls that would have gone to B go to A.
    expect(failed.length).toBeLessThanOrEqual(LOAD.concurrency);
    const seen = failed.length > 0 ? Math.min(...failed.map((answer) => answer.answeredAt)) : killedAt;
    expect(failed.every((answer) => answer.sentAt <= seen)).toBe(true);
    expect(answers.slice(0, 100).some((answer) => expiresIn(answer) === FROM_B)).toBe(true);
    const later = answers.filter((answer) => answer.sentAt > seen);
    expect(later.length).toBeGreaterThan(150);
    expect(later.every((answer) => answer.status === 200 && expiresIn(answer) === FROM_A)).toBe(true);
  },
);

it('takes the restarted replica back without restarting anything else', SLOW, async () => {
  await startReplicaB();
  await untilBothReplicasAnswer();
  const answers = await runLoad(100, LOAD.concurrency, token);
  expect(countStatuses(answers)).toEqual({ 200: 100 });
});
