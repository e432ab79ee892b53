import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchEnv } from './config/env.js';
import { runLoad } from './load/run-load.js';
import { print, type ScenarioOutcome } from './report/report.js';
import { probe, type Scenario } from './scenarios.js';
import type { LocalSuite } from './suite/local-suite.js';

/** Steady load before the first replica stops and after the last one is back. */
const STEADY_MS = 2000;
/** Generous: each replica drains, starts (a few seconds) and settles (AUTHZ_REPLICA_SETTLE, 5 s). */
const RESTART_TIMEOUT_MS = 120_000;

/**
 * The client_credentials load while the launcher restarts every oauth replica one at a time
 * (docs/decisions.md #26, #27; docs/operations.md "Running two oauth replicas"): a replica stopping
 * gracefully drains its calls and refuses new ones before any handler runs, so the gateway
 * moves them to another replica and no request may fail. The load runs from before the first
 * stop until after the last replica is back.
 */
export async function measureDuringRestart(
  scenario: Scenario,
  suite: LocalSuite,
  env: BenchEnv,
  signal: AbortSignal,
): Promise<ScenarioOutcome> {
  const skipped =
    (await probe(scenario)) ??
    (env.oauthReplicas < 2 ? 'needs BENCH_OAUTH_REPLICAS of 2 or more' : undefined);
  if (skipped) {
    print(`${scenario.name}: skipped, ${skipped}`);
    return { scenario: scenario.name, server: 'suite', skipped };
  }
  const { connections, rate } = env;
  await runLoad(scenario.target, { connections, rate, durationSeconds: env.warmupSeconds }, signal);
  const done = new AbortController();
  const load = runLoad(
    scenario.target,
    { connections, rate, durationSeconds: (RESTART_TIMEOUT_MS + 2 * STEADY_MS) / 1000 },
    AbortSignal.any([signal, done.signal]),
  );
  try {
    await sleep(STEADY_MS, undefined, { signal });
    const started = Date.now();
    await suite.restartOAuthReplicas(RESTART_TIMEOUT_MS);
    print(
      `${scenario.name}: ${env.oauthReplicas} oauth replicas restarted one at a time in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    await sleep(STEADY_MS, undefined, { signal });
  } finally {
    done.abort();
  }
  const result = await load;
  signal.throwIfAborted();
  const failed = result.non2xx + result.errors;
  print(
    `${scenario.name} (suite): ${result.total} requests at ${result.requestsPerSecond.toFixed(0)} req/s, ` +
      `p99 ${result.p99} ms, ${result.non2xx} non-2xx, ${result.errors} errors -> ` +
      `target: zero failed requests -> ${failed === 0 ? 'met' : `MISSED (${failed} failed)`}`,
  );
  return { scenario: scenario.name, server: 'suite', result };
}
