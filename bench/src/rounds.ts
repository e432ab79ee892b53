import type { BenchEnv } from './config/env.js';
import type { LoadResult } from './load/run-load.js';
import { measure } from './measure.js';
import { print } from './report/report.js';
import type { Scenario } from './scenarios.js';

/** client_credentials measured on the suite, then on oidc-provider, close together in time. */
export interface Round {
  ours: LoadResult;
  reference: LoadResult;
}

/**
 * BENCH_ROUNDS > 1. The machine's speed drifts over minutes, so one suite run and one
 * oidc-provider run half a minute apart can disagree by a third whatever the code. Further
 * rounds alternate the two servers with both processes up (the idle one uses no CPU), and the
 * verdict takes the round of median ratio rather than the first.
 */
export async function measureMoreRounds(
  first: Round,
  scenarios: { ours: Scenario; reference: Scenario },
  env: BenchEnv,
  signal: AbortSignal,
): Promise<Round[]> {
  const rounds = [first];
  for (let number = 2; number <= env.rounds; number++) {
    print(`round ${number} of ${env.rounds}:`);
    const ours = await measure(scenarios.ours, 'suite', env, signal);
    const reference = await measure(scenarios.reference, 'oidc-provider', env, signal);
    if (!ours.result || !reference.result) throw new Error(`round ${number} could not be measured`);
    rounds.push({ ours: ours.result, reference: reference.result });
  }
  return rounds;
}

/** One line per round, then the median; returns the round whose ratio is the median one. */
export function printRounds(rounds: Round[]): Round {
  print();
  print(
    'round  suite req/s  suite p99 ms  suite stolen  oidc-provider req/s  oidc-provider p99 ms  oidc-provider stolen  ratio',
  );
  rounds.forEach((round, index) => {
    const cells = [
      String(index + 1).padEnd(5),
      round.ours.requestsPerSecond.toFixed(0).padStart(11),
      String(round.ours.p99).padStart(12),
      stolen(round.ours).padStart(12),
      round.reference.requestsPerSecond.toFixed(0).padStart(19),
      String(round.reference.p99).padStart(20),
      stolen(round.reference).padStart(20),
      ratioOf(round).toFixed(2).padStart(5),
    ];
    print(cells.join('  '));
  });
  const sorted = [...rounds].sort((a, b) => ratioOf(a) - ratioOf(b));
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const ratios = sorted.map((round) => ratioOf(round).toFixed(2)).join(', ');
  const which = rounds.length % 2 === 0 ? 'the lower of the two medians' : 'the median';
  print(`ratios in order: ${ratios}; the verdict below is round ${rounds.indexOf(median) + 1}'s (${which})`);
  return median;
}

/** Cores the hypervisor took during the run (cpu-usage.ts), when /proc could be read. */
function stolen(result: Round['ours']): string {
  return result.cpu ? result.cpu.stolen.toFixed(2) : '-';
}

function ratioOf(round: Round): number {
  return round.ours.requestsPerSecond / round.reference.requestsPerSecond;
}
