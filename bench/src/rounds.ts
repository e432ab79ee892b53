import type { BenchEnv } from './config/env.js';
import type { LoadResult } from './load/run-load.js';
import { measure } from './measure.js';
import { print } from './report/report.js';
import type { Scenario } from './scenarios.js';

/** client_credentials measured on the suite, oidc-provider and the floor, close together in time. */
export interface Round {
  ours: LoadResult;
  reference: LoadResult;
  floor: LoadResult;
}

export type RoundScenarios = { [server in keyof Round]: Scenario };

/**
 * BENCH_ROUNDS > 1. The machine's speed drifts over minutes, so one suite run and one
 * oidc-provider run half a minute apart can disagree by a third whatever the code. Further
 * rounds alternate the three servers with all processes up (the idle ones use no CPU), and the
 * verdict takes the round of median suite / oidc-provider ratio rather than the first.
 */
export async function measureMoreRounds(
  first: Round,
  scenarios: RoundScenarios,
  env: BenchEnv,
  signal: AbortSignal,
): Promise<Round[]> {
  const rounds = [first];
  for (let number = 2; number <= env.rounds; number++) {
    print(`round ${number} of ${env.rounds}:`);
    const ours = await measure(scenarios.ours, 'suite', env, signal);
    const reference = await measure(scenarios.reference, 'oidc-provider', env, signal);
    const floor = await measure(scenarios.floor, 'floor', env, signal);
    if (!ours.result || !reference.result || !floor.result)
      throw new Error(`round ${number} could not be measured`);
    rounds.push({ ours: ours.result, reference: reference.result, floor: floor.result });
  }
  return rounds;
}

/** One line per round, then the median; returns the round whose ratio is the median one. */
export function printRounds(rounds: Round[]): Round {
  print();
  const columns: [string, (round: Round) => string][] = [
    ['round', (round) => String(rounds.indexOf(round) + 1)],
    ['suite req/s', (round) => round.ours.requestsPerSecond.toFixed(0)],
    ['suite p99 ms', (round) => String(round.ours.p99)],
    ['suite stolen', (round) => stolen(round.ours)],
    ['oidc-provider req/s', (round) => round.reference.requestsPerSecond.toFixed(0)],
    ['oidc-provider p99 ms', (round) => String(round.reference.p99)],
    ['oidc-provider stolen', (round) => stolen(round.reference)],
    ['floor req/s', (round) => round.floor.requestsPerSecond.toFixed(0)],
    ['floor p99 ms', (round) => String(round.floor.p99)],
    ['floor stolen', (round) => stolen(round.floor)],
    ['suite/oidc-provider', (round) => referenceRatio(round).toFixed(2)],
    ['suite/floor', (round) => floorRatio(round).toFixed(2)],
  ];
  print(columns.map(([title]) => title).join('  '));
  for (const round of rounds)
    print(
      columns
        .map(([title, cell], index) => cell(round)[index === 0 ? 'padEnd' : 'padStart'](title.length))
        .join('  '),
    );
  const sorted = [...rounds].sort((a, b) => referenceRatio(a) - referenceRatio(b));
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const ratios = sorted.map((round) => referenceRatio(round).toFixed(2)).join(', ');
  const which = rounds.length % 2 === 0 ? 'the lower of the two medians' : 'the median';
  print(
    `suite/oidc-provider ratios in order: ${ratios}; the verdict below is round ${rounds.indexOf(median) + 1}'s (${which})`,
  );
  return median;
}

/** Cores the hypervisor took during the run (cpu-usage.ts), when /proc could be read. */
function stolen(result: LoadResult): string {
  return result.cpu ? result.cpu.stolen.toFixed(2) : '-';
}

export function referenceRatio(round: Round): number {
  return round.ours.requestsPerSecond / round.reference.requestsPerSecond;
}

export function floorRatio(round: Round): number {
  return round.ours.requestsPerSecond / round.floor.requestsPerSecond;
}
