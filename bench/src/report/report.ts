import type { LoadResult } from '../load/run-load.js';
import type { ProcessProfile } from '../profile/cpu-profile.js';

export interface ScenarioOutcome {
  scenario: string;
  server: 'suite' | 'oidc-provider' | 'floor';
  result?: LoadResult;
  /** Why it was not measured. */
  skipped?: string;
}

export function print(line = ''): void {
  process.stdout.write(`${line}\n`);
}

export function printTable(outcomes: ScenarioOutcome[]): void {
  const header = [
    'scenario',
    'server',
    'req/s',
    'p50 ms',
    'p99 ms',
    'requests',
    'non-2xx',
    '429',
    'errors',
    'load gen cores',
    'server cores',
    'other cores',
    'stolen cores',
    'server CPU ms/req',
  ];
  const rows = outcomes.map(({ scenario, server, result, skipped }) =>
    result
      ? [
          scenario,
          server,
          result.requestsPerSecond.toFixed(0),
          String(result.p50),
          String(result.p99),
          String(result.total),
          String(result.non2xx),
          String(result.rateLimited),
          String(result.errors),
          ...cpuColumns(result),
        ]
      : [scenario, server, `skipped: ${skipped ?? 'not run'}`],
  );
  const measured = [header, ...rows.filter((row) => row.length === header.length)];
  const widths = header.map((_, column) => Math.max(...measured.map((row) => row[column]?.length ?? 0)));
  const format = (row: string[]) =>
    row.length === header.length
      ? row
          .map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
          .join('  ')
      : `${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padEnd(widths[1]!)}  ${row[2]}`;
  print(format(header));
  for (const row of rows) print(format(row));
}

export function printProfiles(profiles: ProcessProfile[], top: number): void {
  for (const profile of profiles) {
    print();
    print(
      `${profile.process}: busy ${percent(profile.busy)} of the client_credentials window ` +
        `(${profile.samples} samples); self time, share of its busy samples:`,
    );
    if (profile.busy < 0.02) continue;
    for (const spot of profile.functions.slice(0, top)) {
      const via = spot.via ? `  <- ${spot.via}` : '';
      print(`  ${percent(spot.share).padStart(6)}  ${spot.name}  ${spot.location || spot.origin}${via}`);
    }
    print(
      `  by origin: ${profile.origins
        .slice(0, 10)
        .map(({ origin, share }) => `${origin} ${percent(share)}`)
        .join(', ')}`,
    );
  }
}

/** Cores used, and the servers' CPU per request: what the machine's two cores are spent on. */
function cpuColumns({ cpu, requestsPerSecond }: LoadResult): string[] {
  if (!cpu) return ['-', '-', '-', '-', '-'];
  const perRequest = requestsPerSecond > 0 ? (cpu.servers / requestsPerSecond) * 1000 : 0;
  return [
    cpu.loadGenerator.toFixed(2),
    cpu.servers.toFixed(2),
    cpu.outside.toFixed(2),
    cpu.stolen.toFixed(2),
    perRequest.toFixed(3),
  ];
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}
