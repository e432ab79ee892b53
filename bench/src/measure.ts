import type { BenchEnv } from './config/env.js';
import { runLoad, type LoadResult } from './load/run-load.js';
import { print, type ScenarioOutcome } from './report/report.js';
import { probe, type Scenario } from './scenarios.js';

/** Warm-up (discarded), then the measured run; skipped when a first request does not answer 200. */
export async function measure(
  scenario: Scenario,
  server: ScenarioOutcome['server'],
  env: BenchEnv,
  signal: AbortSignal,
): Promise<ScenarioOutcome> {
  const skipped = await probe(scenario);
  if (skipped) {
    print(`${scenario.name}: skipped, ${skipped}`);
    return { scenario: scenario.name, server, skipped };
  }
  const { connections, rate } = env;
  const warmUp = await runLoad(
    scenario.target,
    { connections, rate, durationSeconds: env.warmupSeconds },
    signal,
  );
  scenario.beforeWindow?.({
    requestsPerSecond: rate ?? warmUp.requestsPerSecond,
    durationSeconds: env.durationSeconds,
  });
  const result = await runLoad(
    scenario.target,
    { connections, rate, durationSeconds: env.durationSeconds },
    signal,
  );
  signal.throwIfAborted();
  const note = scenario.describeWindow?.();
  print(`${scenario.name} (${server}): ${describe(result)}${note ? `; ${note}` : ''}`);
  return { scenario: scenario.name, server, result };
}

function describe(result: LoadResult): string {
  const { requestsPerSecond, p50, p99, non2xx, rateLimited, errors, cpu } = result;
  const figures = `${requestsPerSecond.toFixed(0)} req/s, p50 ${p50} ms, p99 ${p99} ms, ${non2xx} non-2xx (${rateLimited} of them 429), ${errors} errors`;
  if (!cpu) return figures;
  return (
    `${figures}; cores used: load generator ${cpu.loadGenerator.toFixed(2)}, ` +
    `servers ${cpu.servers.toFixed(2)} (${busiest(cpu.byServer)}), outside ${cpu.outside.toFixed(2)}, ` +
    `stolen ${cpu.stolen.toFixed(2)}; main threads: ${busiest(cpu.mainThreadByServer)}`
  );
}

/** `gateway 0.67, oauth 0.62`: the processes that used at least a hundredth of a core, busiest first. */
function busiest(coresByServer: Record<string, number>): string {
  return Object.entries(coresByServer)
    .filter(([, cores]) => cores >= 0.01)
    .sort((a, b) => b[1] - a[1])
    .map(([name, cores]) => `${name} ${cores.toFixed(2)}`)
    .join(', ');
}
