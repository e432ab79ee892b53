import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchEnv } from './config/env.js';
import type { LoadResult } from './load/run-load.js';
import { measure } from './measure.js';
import { readProfiles } from './profile/cpu-profile.js';
import { PROFILED_SERVICES, REFERENCE_SERVER } from './profile/profiled-servers.js';
import { measureDuringRestart } from './replica-restart.js';
import { measureMoreRounds, printRounds } from './rounds.js';
import { startReferenceProvider } from './reference/reference-provider.js';
import { describeBatches, tallyOAuthBatches } from './report/oauth-batches.js';
import { printDpopCost } from './report/dpop-cost.js';
import { print, printProfiles, printTable, printVerdict, type ScenarioOutcome } from './report/report.js';
import { clientCredentials, suiteScenarios, type Scenario } from './scenarios.js';
import { createBenchDatabase, deleteRedisKeys } from './suite/backends.js';
import { createMachineClient, requestClientCredentialsToken } from './suite/fixtures.js';
import { LocalSuite } from './suite/local-suite.js';
import { checkPortsFree, profilerEnvironment, suiteEnvironment } from './suite/suite-environment.js';
import type { Teardown } from './teardown.js';

const HOT_SPOTS_SHOWN = 15;

interface Run {
  env: BenchEnv;
  signal: AbortSignal;
  teardown: Teardown;
  /** Where this run's CPU profiles go, when profiling. */
  profileDir: string | undefined;
  outcomes: ScenarioOutcome[];
  suite?: LocalSuite;
  /** Kept for BENCH_ROUNDS > 1: what each server's client_credentials load is. */
  tokenScenarios: { ours?: Scenario; reference?: Scenario };
  stopReference?: () => Promise<void>;
}

/**
 * `pnpm bench`: the suite started as in production and measured on its public endpoints, then
 * node-oidc-provider on the same client_credentials load. Exits 0 with a report whether or not
 * the targets are met; 1 only when something could not be set up.
 */
export async function runBench(env: BenchEnv, signal: AbortSignal, teardown: Teardown): Promise<number> {
  const run: Run = { env, signal, teardown, profileDir: undefined, outcomes: [], tokenScenarios: {} };
  try {
    await checkPortsFree(env);
    print(
      `bench: ${env.connections} connections, ${env.warmupSeconds} s warm-up + ${env.durationSeconds} s ` +
        `per scenario, ${env.oauthReplicas} oauth replica(s), Node ${process.version}, the load generator on the same machine, ` +
        `load average ${loadavg()[0]!.toFixed(2)} before starting`,
    );
    run.profileDir = await createProfileDir(env);
    const ours = await measureSuite(run);
    const reference = env.scenarios.includes('client_credentials') ? await measureReference(run) : undefined;
    const { ours: oursScenario, reference: referenceScenario } = run.tokenScenarios;
    const rounds =
      ours && reference && oursScenario && referenceScenario && keepsBothUp(env)
        ? await measureMoreRounds(
            { ours, reference },
            { ours: oursScenario, reference: referenceScenario },
            env,
            signal,
          )
        : undefined;
    // Both stopped before reading profiles, which each process writes as it exits.
    await run.suite?.stop();
    await run.stopReference?.();
    print();
    printTable(run.outcomes);
    printDpopCost(run.outcomes);
    const verdict = rounds ? printRounds(rounds) : { ours, reference };
    printVerdict(verdict.ours, verdict.reference, env.connections);
    if (run.profileDir) await reportProfiles(run.profileDir, ours, reference, env.root);
    return 0;
  } catch (error) {
    return reportFailure(run, error);
  }
}

/** Backends of its own, the suite, one machine client, then every scenario against it. */
async function measureSuite(run: Run): Promise<LoadResult | undefined> {
  const { env, signal, teardown } = run;
  const database = await createBenchDatabase(env.databaseUrl);
  teardown.add('drop the bench database', () => database.drop());
  const redisPrefix = `bench:${randomBytes(6).toString('hex')}:`;
  teardown.add('delete the bench Redis keys', () => deleteRedisKeys(env.redisUrl, redisPrefix));
  const dataDir = await mkdtemp(join(tmpdir(), 'authz-bench-'));
  teardown.add('remove the launcher data folder', () => rm(dataDir, { recursive: true, force: true }));

  print('starting the suite (pnpm start launcher) ...');
  const suite = new LocalSuite({
    root: env.root,
    env: {
      ...suiteEnvironment(env, { databaseUrl: database.url, redisPrefix, dataDir }),
      ...profilerEnvironment(env, run.profileDir),
    },
    port: env.ports.gateway,
    startTimeoutMs: env.startTimeoutMs,
    signal,
  });
  run.suite = suite;
  teardown.add(
    'stop the suite',
    () => suite.stop(),
    () => suite.kill(),
  );
  await suite.waitUntilHealthy();
  const client = await createMachineClient(suite.baseUrl);
  print(`suite healthy on ${suite.baseUrl}; client ${client.clientId} issues EdDSA JWT access tokens`);

  const measuring = suite.mark;
  for (const scenario of suiteScenarios(suite.baseUrl, client, env.scenarios)) {
    if (scenario.name === 'client_credentials') run.tokenScenarios.ours = scenario;
    const before = await tallyOAuthBatches(env);
    run.outcomes.push(
      scenario.name === 'replica_restart'
        ? await measureDuringRestart(scenario, suite, env, signal)
        : await measure(scenario, 'suite', env, signal),
    );
    const after = await tallyOAuthBatches(env);
    if (before && after) print(`  gateway to oauth, warm-up included: ${describeBatches(before, after)}`);
  }
  const printed = suite.output.slice(measuring);
  // Stopped before oidc-provider runs, so it has the machine to itself (and profiles get
  // written), unless further rounds alternate the two.
  if (!keepsBothUp(env)) await suite.stop();
  if (printed.length > 0) {
    print(
      `the suite printed ${printed.length} lines while measured (LOG_LEVEL=${env.logLevel}); the last ones:`,
    );
    for (const line of printed.slice(-20)) print(`  ${line}`);
  }
  return run.outcomes.find((outcome) => outcome.scenario === 'client_credentials')?.result;
}

/** node-oidc-provider in a process of its own, checked to issue EdDSA JWTs, then the same load. */
async function measureReference(run: Run): Promise<LoadResult | undefined> {
  const { env, signal } = run;
  print('starting node-oidc-provider ...');
  const reference = await startReferenceProvider(
    env.ports.reference,
    profilerEnvironment(env, run.profileDir),
    signal,
  );
  run.teardown.add('stop oidc-provider', () => reference.stop());
  run.stopReference = () => reference.stop();
  await requestClientCredentialsToken(reference.tokenUrl, reference.authorization);
  print('oidc-provider issues EdDSA JWT access tokens');
  const scenario = clientCredentials(reference.tokenUrl, reference.authorization);
  const outcome = await measure(scenario, 'oidc-provider', env, signal);
  run.outcomes.push(outcome);
  run.tokenScenarios.reference = scenario;
  if (keepsBothUp(env)) return outcome.result;
  await reference.stop();
  return outcome.result;
}

function keepsBothUp(env: BenchEnv): boolean {
  return env.rounds > 1 && env.scenarios.includes('client_credentials');
}

async function createProfileDir(env: BenchEnv): Promise<string | undefined> {
  if (!env.cpuProfileDir) return undefined;
  const dir = join(env.cpuProfileDir, `run-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** Hot spots of each profiled process over its own client_credentials window. */
async function reportProfiles(
  dir: string,
  ours: LoadResult | undefined,
  reference: LoadResult | undefined,
  root: string,
): Promise<void> {
  print();
  print(`CPU profiles in ${dir} (the figures above include the profiler's overhead)`);
  const windows = [
    ...(ours ? PROFILED_SERVICES.map((name) => ({ name, window: ours.window })) : []),
    ...(reference ? [{ name: REFERENCE_SERVER, window: reference.window }] : []),
  ];
  printProfiles(await readProfiles(dir, windows, root, print), HOT_SPOTS_SHOWN);
}

function reportFailure(run: Run, error: unknown): number {
  if (run.outcomes.length > 0) {
    print();
    printTable(run.outcomes);
  }
  if (run.signal.aborted) {
    print('interrupted: everything started is being stopped');
    return 130;
  }
  print(`bench setup failed: ${(error as Error).message}`);
  const { suite } = run;
  if (suite && !suite.stopRequested && suite.output.length > 0) {
    print('last lines of the suite:');
    for (const line of suite.output.slice(-40)) print(`  ${line}`);
  }
  return 1;
}
