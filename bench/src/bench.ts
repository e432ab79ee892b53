import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchEnv } from './config/env.js';
import { startFloorServer } from './floor/floor.js';
import { residentMemory } from './load/memory.js';
import type { LoadResult } from './load/run-load.js';
import { measure } from './measure.js';
import { readProfiles } from './profile/cpu-profile.js';
import { PROFILED_SERVICES, REFERENCE_SERVER } from './profile/profiled-servers.js';
import { measureDuringRestart } from './replica-restart.js';
import { measureMoreRounds, printRounds, type Round, type RoundScenarios } from './rounds.js';
import { startReferenceProvider } from './reference/reference-provider.js';
import { describeBatches, tallyOAuthBatches } from './report/oauth-batches.js';
import { printDpopCost } from './report/dpop-cost.js';
import { printMemory, type SuiteMemory } from './report/memory-report.js';
import { print, printProfiles, printTable, type ScenarioOutcome } from './report/report.js';
import { printTargets } from './report/targets.js';
import { clientCredentials, suiteScenarios } from './scenarios.js';
import { createBenchDatabase, deleteRedisKeys } from './suite/backends.js';
import { createDeveloper, createMachineClient, requestClientCredentialsToken } from './suite/fixtures.js';
import { LocalSuite } from './suite/local-suite.js';
import { checkPortsFree, profilerEnvironment, suiteEnvironment } from './suite/suite-environment.js';
import { obtainUserToken, type UserToken } from './suite/user-token.js';
import type { Teardown } from './teardown.js';

const HOT_SPOTS_SHOWN = 15;
/** How long the suite is left alone before its idle memory is read: start-up work settles. */
const IDLE_AFTER_START_MS = 10_000;
/**
 * The same after the load: answers in flight end, buffers are let go, and each service gives
 * its young generation back once idle for a few seconds (docs/performance.md "Memory").
 */
const IDLE_AFTER_LOAD_MS = 10_000;
/** The verification mail goes through the mailer worker's queue first. */
const MAIL_TIMEOUT_MS = 15_000;

interface Run {
  env: BenchEnv;
  signal: AbortSignal;
  teardown: Teardown;
  /** Where this run's CPU profiles go, when profiling. */
  profileDir: string | undefined;
  outcomes: ScenarioOutcome[];
  suite?: LocalSuite;
  /** Kept for BENCH_ROUNDS > 1: what each server's client_credentials load is. */
  tokenScenarios: Partial<RoundScenarios>;
  stopReference?: () => Promise<void>;
  stopFloor?: () => Promise<void>;
  memory?: SuiteMemory;
}

/**
 * `pnpm bench`: the suite started as in production and measured on its public endpoints, then
 * node-oidc-provider and the floor server on the same client_credentials load. Exits 0 with a report whether or not
 * the targets are met; 1 only when something could not be set up.
 */
export async function runBench(env: BenchEnv, signal: AbortSignal, teardown: Teardown): Promise<number> {
  const run: Run = { env, signal, teardown, profileDir: undefined, outcomes: [], tokenScenarios: {} };
  try {
    await checkPortsFree(env);
    const pace = env.rate === undefined ? 'each sending as soon as answered' : `${env.rate} req/s offered`;
    print(
      `bench: ${env.connections} connections, ${pace}, ${env.warmupSeconds} s warm-up + ${env.durationSeconds} s ` +
        `per scenario, ${env.oauthReplicas} oauth replica(s), Node ${process.version}, the load generator on the same machine, ` +
        `load average ${loadavg()[0]!.toFixed(2)} before starting`,
    );
    run.profileDir = await createProfileDir(env);
    const ours = await measureSuite(run);
    const measuresOthers = env.scenarios.includes('client_credentials');
    const reference = measuresOthers ? await measureReference(run) : undefined;
    const floor = measuresOthers ? await measureFloor(run) : undefined;
    const first = ours && reference && floor ? { ours, reference, floor } : undefined;
    const scenarios = run.tokenScenarios;
    const rounds: Round[] | undefined =
      first && scenarios.ours && scenarios.reference && scenarios.floor && keepsAllUp(env)
        ? await measureMoreRounds(
            first,
            { ours: scenarios.ours, reference: scenarios.reference, floor: scenarios.floor },
            env,
            signal,
          )
        : first && [first];
    if (run.suite && run.memory && keepsAllUp(env))
      run.memory.afterLoad = await idleMemory(run.suite, IDLE_AFTER_LOAD_MS, signal);
    // All stopped before reading profiles, which each process writes as it exits.
    await run.suite?.stop();
    await run.stopReference?.();
    await run.stopFloor?.();
    print();
    printTable(run.outcomes);
    printDpopCost(run.outcomes);
    const verdict = rounds ? printRounds(rounds) : undefined;
    if (run.memory) printMemory(run.memory);
    printTargets({ outcomes: run.outcomes, rounds, verdict, memory: run.memory, offeredRate: env.rate });
    if (run.profileDir) await reportProfiles(run.profileDir, profiledWindow(run, ours), reference, env.root);
    return 0;
  } catch (error) {
    return reportFailure(run, error);
  }
}

/** Backends of its own, the suite, one machine client, then every scenario against it. */
async function measureSuite(run: Run): Promise<LoadResult | undefined> {
  const { env, signal, teardown } = run;
  const database = await createBenchDatabase(env.databaseUrl, env.ports.gateway);
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
  run.memory = { idle: await idleMemory(suite, IDLE_AFTER_START_MS, signal) };
  const developer = await createDeveloper(suite.baseUrl);
  const client = await createMachineClient(suite.baseUrl, developer);
  print(`suite healthy on ${suite.baseUrl}; client ${client.clientId} issues EdDSA JWT access tokens`);
  const user = env.scenarios.includes('userinfo') ? await userToken(suite, developer) : undefined;

  const measuring = suite.mark;
  for (const scenario of suiteScenarios(suite.baseUrl, { client, user }, env.scenarios)) {
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
  // written), unless further rounds alternate the servers; its memory is read first.
  if (!keepsAllUp(env)) {
    run.memory.afterLoad = await idleMemory(suite, IDLE_AFTER_LOAD_MS, signal);
    await suite.stop();
  }
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
  print('starting node-oidc-provider ...');
  const reference = await startReferenceProvider(
    run.env.ports.reference,
    profilerEnvironment(run.env, run.profileDir),
    run.signal,
  );
  run.stopReference = () => reference.stop();
  return measureComparedServer(run, 'oidc-provider', reference);
}

/** The floor server (floor/floor-server.ts), checked to issue EdDSA JWTs, then the same load. */
async function measureFloor(run: Run): Promise<LoadResult | undefined> {
  print('starting the floor server ...');
  const floor = await startFloorServer(run.env.ports.floor, run.signal);
  run.stopFloor = () => floor.stop();
  return measureComparedServer(run, 'floor', floor);
}

interface ComparedServer {
  tokenUrl: string;
  authorization: string;
  stop(): Promise<void>;
}

/**
 * A server the suite is compared with: stopped by the teardown whatever happens, checked to
 * issue EdDSA JWTs, measured with the suite's client_credentials load, then stopped unless the
 * rounds alternate all of them.
 */
async function measureComparedServer(
  run: Run,
  name: 'oidc-provider' | 'floor',
  server: ComparedServer,
): Promise<LoadResult | undefined> {
  run.teardown.add(`stop the ${name} server`, () => server.stop());
  await requestClientCredentialsToken(server.tokenUrl, server.authorization);
  print(`${name === 'floor' ? 'the floor server' : name} issues EdDSA JWT access tokens`);
  const scenario = clientCredentials(server.tokenUrl, server.authorization);
  const outcome = await measure(scenario, name, run.env, run.signal);
  run.outcomes.push(outcome);
  run.tokenScenarios[name === 'floor' ? 'floor' : 'reference'] = scenario;
  if (!keepsAllUp(run.env)) await server.stop();
  return outcome.result;
}

/** A user's token for UserInfo, through the hosted pages (suite/user-token.ts). */
async function userToken(
  suite: LocalSuite,
  developer: Parameters<typeof obtainUserToken>[1],
): Promise<UserToken> {
  const user = await obtainUserToken(suite.baseUrl, developer, (email) =>
    suite.verificationLink(email, MAIL_TIMEOUT_MS),
  );
  const verified = user.emailVerified ? 'verified address' : 'address NOT verified (no mail came in time)';
  print(`a user authorized a web client through the hosted pages: token for "${user.scope}", ${verified}`);
  return user;
}

/** Resident memory of the launcher and every service, after `ms` of nothing (load/memory.ts). */
async function idleMemory(suite: LocalSuite, ms: number, signal: AbortSignal) {
  await sleep(ms, undefined, { signal });
  return suite.pid === undefined ? [] : residentMemory(suite.pid);
}

function keepsAllUp(env: BenchEnv): boolean {
  return env.rounds > 1 && env.scenarios.includes('client_credentials');
}

async function createProfileDir(env: BenchEnv): Promise<string | undefined> {
  if (!env.cpuProfileDir) return undefined;
  const dir = join(env.cpuProfileDir, `run-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

/**
 * The suite's window the profile summary covers: client_credentials, else the first scenario
 * measured (`BENCH_SCENARIOS=client_credentials_dpop` profiles the DPoP load).
 */
function profiledWindow(run: Run, tokens: LoadResult | undefined): LoadResult | undefined {
  return tokens ?? run.outcomes.find((outcome) => outcome.server === 'suite' && outcome.result)?.result;
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
