import type { LoadResult } from '../load/run-load.js';
import { floorRatio, referenceRatio, type Round } from '../rounds.js';
import { megabytes, type SuiteMemory } from './memory-report.js';
import { print, type ScenarioOutcome } from './report.js';

/** docs/performance.md "Reading the table": what the suite is held to. */
export const TARGETS = {
  /** suite / oidc-provider client_credentials throughput, in the verdict round. */
  referenceRatio: 1.5,
  /** suite / floor server client_credentials throughput, in the verdict round. */
  floorRatio: 0.6,
  /** DPoP client_credentials against the Bearer one: within 25 %. */
  dpopRatio: 0.75,
  /** Whole suite, every process the bench started, at idle. */
  residentMegabytes: 500,
} as const;

export interface TargetInputs {
  /** Every scenario's first measurement (the table). */
  outcomes: readonly ScenarioOutcome[];
  /** client_credentials on the three servers, round after round (rounds.ts). */
  rounds: readonly Round[] | undefined;
  /** The round of median suite / oidc-provider ratio. */
  verdict: Round | undefined;
  memory: SuiteMemory | undefined;
  /** BENCH_RATE: every server was offered the same rate, so throughput and latency say nothing. */
  offeredRate: number | undefined;
}

/** Each target, met or MISSED with why; a missed target is reported, never an error. */
export function printTargets({ outcomes, rounds, verdict, memory, offeredRate }: TargetInputs): void {
  print();
  print('targets:');
  const fixed: Outcome | undefined =
    offeredRate === undefined
      ? undefined
      : { figures: '', unjudged: `every server offered ${offeredRate} req/s` };
  const suite = (name: string) =>
    outcomes.find((outcome) => outcome.server === 'suite' && outcome.scenario === name)?.result;
  const bearer = suite('client_credentials');
  const which = verdict && rounds ? `, round ${rounds.indexOf(verdict) + 1}` : '';

  line(
    `client_credentials suite / oidc-provider at least ${TARGETS.referenceRatio.toFixed(2)}`,
    fixed ??
      (verdict &&
        atLeast(
          referenceRatio(verdict),
          TARGETS.referenceRatio,
          `${rate(verdict.ours)} vs ${rate(verdict.reference)} req/s${which}`,
        )),
  );
  line(
    "client_credentials suite p99 below oidc-provider's",
    fixed ??
      (verdict && {
        figures: `${verdict.ours.p99} vs ${verdict.reference.p99} ms${which}`,
        ...(verdict.ours.p99 < verdict.reference.p99
          ? {}
          : { missed: `${verdict.ours.p99} ms >= ${verdict.reference.p99} ms` }),
      }),
  );
  const suiteRuns = rounds ? rounds.map((round) => round.ours) : bearer ? [bearer] : [];
  const failed = sum(suiteRuns, (result) => result.non2xx + result.errors);
  const limited = sum(suiteRuns, (result) => result.rateLimited);
  line(
    'client_credentials on the suite, every round: zero failed requests and zero 429',
    suiteRuns.length > 0 && {
      figures: `${failed} failed, ${limited} of them 429`,
      ...(failed === 0 ? {} : { missed: `${failed} failed, ${limited} of them 429` }),
    },
  );
  line(
    `client_credentials suite / floor at least ${TARGETS.floorRatio.toFixed(2)}`,
    fixed ??
      (verdict &&
        atLeast(
          floorRatio(verdict),
          TARGETS.floorRatio,
          `${rate(verdict.ours)} vs ${rate(verdict.floor)} req/s${which}`,
        )),
  );
  for (const name of ['introspection', 'userinfo'])
    line(`${name} req/s at least client_credentials'`, fixed ?? compare(suite(name), bearer, 1));
  line(
    `client_credentials_dpop req/s at least ${TARGETS.dpopRatio.toFixed(2)} of client_credentials'`,
    fixed ?? compare(suite('client_credentials_dpop'), bearer, TARGETS.dpopRatio),
  );
  line(`whole suite under ${TARGETS.residentMegabytes} MB resident at idle`, memoryVerdict(memory));
}

/** What a target line shows, and why it is missed (absent when met); false or undefined: not measured. */
interface Outcome {
  figures: string;
  missed?: string;
  /** Why the target cannot be judged from this run (BENCH_RATE). */
  unjudged?: string;
}

/**
 * One scenario's answered-2xx rate against client_credentials' in the same first round: 429s and
 * errors are fast answers that did no work, so they do not count as throughput.
 */
function compare(
  result: LoadResult | undefined,
  bearer: LoadResult | undefined,
  factor: number,
): Outcome | undefined {
  if (!result || !bearer) return undefined;
  const served = servedPerSecond(result);
  const refused = result.non2xx + result.errors;
  const note = refused > 0 ? `; ${refused} not 2xx, ${result.rateLimited} of them 429` : '';
  return atLeast(
    served / bearer.requestsPerSecond,
    factor,
    `${served.toFixed(0)} 2xx vs ${rate(bearer)} req/s${note}`,
  );
}

function atLeast(ratio: number, target: number, detail: string): Outcome {
  return {
    figures: `${ratio.toFixed(2)} (${detail})`,
    ...(ratio >= target ? {} : { missed: `${ratio.toFixed(2)} < ${target.toFixed(2)}` }),
  };
}

/**
 * Judged on the sum of PSS, the memory the suite occupies (load/memory.ts); the sum of RSS, which
 * counts the code every Node process shares once per process, is printed beside it.
 */
function memoryVerdict(memory: SuiteMemory | undefined): Outcome | undefined {
  if (!memory || memory.idle.length === 0) return undefined;
  const idle = megabytes(memory.idle, 'proportionalKb');
  const idleRss = megabytes(memory.idle);
  return {
    figures: `${idle.toFixed(0)} MB PSS after start-up (RSS summed per process: ${idleRss.toFixed(0)} MB)`,
    ...(idle < TARGETS.residentMegabytes ? {} : { missed: `${idle.toFixed(0)} MB` }),
  };
}

function line(target: string, outcome: Outcome | false | undefined): void {
  if (!outcome) return print(`  ${target} -> not measured`);
  if (outcome.unjudged) return print(`  ${target} -> not judged: ${outcome.unjudged}`);
  print(
    `  ${target}: ${outcome.figures} -> ${outcome.missed === undefined ? 'met' : `MISSED (${outcome.missed})`}`,
  );
}

function servedPerSecond(result: LoadResult): number {
  if (result.total === 0) return 0;
  return (result.requestsPerSecond * (result.total - result.non2xx)) / result.total;
}

function rate(result: LoadResult): string {
  return result.requestsPerSecond.toFixed(0);
}

function sum(results: readonly LoadResult[], value: (result: LoadResult) => number): number {
  return results.reduce((total, result) => total + value(result), 0);
}
