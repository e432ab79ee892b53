import { print, type ScenarioOutcome } from './report.js';

/**
 * What binding tokens to a DPoP key costs (docs/performance.md "DPoP"): the DPoP
 * client_credentials load against the Bearer one, same client, same machine, one after the other.
 */
export function printDpopCost(outcomes: readonly ScenarioOutcome[]): void {
  const suite = (name: string) =>
    outcomes.find((outcome) => outcome.server === 'suite' && outcome.scenario === name)?.result;
  const bearer = suite('client_credentials');
  const dpop = suite('client_credentials_dpop');
  if (!bearer || !dpop) return;
  const ratio = dpop.requestsPerSecond / bearer.requestsPerSecond;
  const perRequestMs = 1000 / dpop.requestsPerSecond - 1000 / bearer.requestsPerSecond;
  print(
    `client_credentials with DPoP / Bearer: ${ratio.toFixed(2)} of the throughput ` +
      `(${dpop.requestsPerSecond.toFixed(0)} vs ${bearer.requestsPerSecond.toFixed(0)} req/s, ` +
      `${perRequestMs.toFixed(3)} ms more per request at this concurrency), ` +
      `p50 ${dpop.p50} vs ${bearer.p50} ms, p99 ${dpop.p99} vs ${bearer.p99} ms, ` +
      `${dpop.non2xx + dpop.errors} failed`,
  );
}
