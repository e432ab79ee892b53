import type { ProcessMemory } from '../load/memory.js';
import { print } from './report.js';

/** The suite's resident memory at idle, before and after the load (load/memory.ts). */
export interface SuiteMemory {
  idle: ProcessMemory[];
  /** Undefined when the run stopped before the load was over. */
  afterLoad?: ProcessMemory[];
}

type Measure = 'residentKb' | 'proportionalKb';

/** /proc counts kB of 1024 bytes; so does this MB. */
export function megabytes(processes: readonly ProcessMemory[], measure: Measure = 'residentKb'): number {
  return processes.reduce((sum, process) => sum + process[measure], 0) / 1024;
}

/**
 * One row per process, then the total: RSS and PSS (load/memory.ts) at idle after start-up, and
 * at idle after the load.
 */
export function printMemory({ idle, afterLoad }: SuiteMemory): void {
  if (idle.length === 0) return;
  print();
  const names = [...new Set([...idle, ...(afterLoad ?? [])].map(({ name }) => name))];
  const width = Math.max('process'.length, 'total'.length, ...names.map((name) => name.length));
  const columns: [string, readonly ProcessMemory[] | undefined, Measure][] = [
    ['RSS MB at idle after start-up', idle, 'residentKb'],
    ['PSS MB', idle, 'proportionalKb'],
    ['RSS MB at idle after the load', afterLoad, 'residentKb'],
    ['PSS MB', afterLoad, 'proportionalKb'],
  ];
  const cell = (processes: readonly ProcessMemory[] | undefined, name: string, measure: Measure) => {
    const found = processes?.find((process) => process.name === name);
    return found ? (found[measure] / 1024).toFixed(1) : '-';
  };
  print(`${'process'.padEnd(width)}  ${columns.map(([title]) => title).join('  ')}`);
  const row = (
    label: string,
    value: (processes: readonly ProcessMemory[] | undefined, measure: Measure) => string,
  ) =>
    print(
      `${label.padEnd(width)}  ${columns
        .map(([title, processes, measure]) => value(processes, measure).padStart(title.length))
        .join('  ')}`,
    );
  for (const name of names) row(name, (processes, measure) => cell(processes, name, measure));
  row('total', (processes, measure) => (processes ? megabytes(processes, measure).toFixed(1) : '-'));
}
