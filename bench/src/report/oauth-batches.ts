import type { BenchEnv } from '../config/env.js';

/** BatchService calls the oauth replicas ran so far, and the calls inside them. */
export interface BatchTally {
  batches: number;
  calls: number;
}

/** Metrics ports of every oauth replica: oauth's own (index 2), then replicas 2.. on base + 7.. */
function oauthMetricsUrls({ ports, oauthReplicas }: BenchEnv): string[] {
  const own = ports.metricsBase + 2;
  const extra = Array.from({ length: oauthReplicas - 1 }, (_, index) => ports.metricsBase + 7 + index);
  return [own, ...extra].map((port) => `http://127.0.0.1:${port}/metrics`);
}

/**
 * `grpc_server_batch_calls` summed over the oauth replicas (docs/performance.md #11), or
 * undefined when one cannot be read (a replica restarting): the readout is a hint, never a
 * reason to fail the run.
 */
export async function tallyOAuthBatches(env: BenchEnv): Promise<BatchTally | undefined> {
  const tally: BatchTally = { batches: 0, calls: 0 };
  for (const url of oauthMetricsUrls(env)) {
    try {
      const exposition = await (await fetch(url, { signal: AbortSignal.timeout(2000) })).text();
      tally.batches += sample(exposition, 'grpc_server_batch_calls_count');
      tally.calls += sample(exposition, 'grpc_server_batch_calls_sum');
    } catch {
      return undefined;
    }
  }
  return tally;
}

/** "1830 batches of 17.2 calls on average", for the calls made between two tallies. */
export function describeBatches(before: BatchTally, after: BatchTally): string {
  const batches = after.batches - before.batches;
  const calls = after.calls - before.calls;
  if (batches === 0) return 'no batches (every call went alone)';
  return `${batches} batches of ${(calls / batches).toFixed(1)} calls on average`;
}

function sample(exposition: string, name: string): number {
  const line = exposition
    .split('\n')
    .find((candidate) => candidate.startsWith(`${name} `) || candidate.startsWith(`${name}{`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}
