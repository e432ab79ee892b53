import type { ProcessMemory } from '../load/memory.js';
import { print } from './report.js';

/** The suite's resident memory at idle, before and after the load (load/memory.ts). */
export interface SuiteMemory {
  idle: ProcessMemory[];
  /** Undefined when the run stopped before the load was over. */
  afterLoad?: ProcessMemory[];
}

/** /proc counts kB of 1024 bytes; so does this MB. */
export function megabytes(processes: readonly ProcessMemory[]): number {
  return processes.reduce((sum, { residentKb }) => sum + residentKb, 0) / 1024;
}

/** One row per process, then the total: at idle after start-up, and at idle after the load. */
export function printMemory({ idle, afterLoad }: SuiteMemory): void {
  if (idle.length === 0) return;
  print();
  const names = [...new Set([...idle, ...(afterLoad ?? [])].map(({ name }) => name))];
  const width = Math.max('process'.length, 'total'.length, ...names.map((name) => name.length));
  const cell = (processes: readonly ProcessMemory[] | undefined, name: string) => {
    const found = processes?.find((process) => process.name === name);
    return found ? (found.residentKb / 1024).toFixed(1) : '-';
  };
  const idleTitle = 'RSS MB at idle after start-up';
  const afterTitle = 'RSS MB at idle after the load';
  print(`${'process'.padEnd(width)}  ${idleTitle}  ${afterTitle}`);
  for (const name of names)
    print(
      `${name.padEnd(width)}  ${cell(idle, name).padStart(idleTitle.length)}  ${cell(afterLoad, name).padStart(afterTitle.length)}`,
    );
  const afterTotal = afterLoad ? megabytes(afterLoad).toFixed(1) : '-';
  print(
    `${'total'.padEnd(width)}  ${megabytes(idle).toFixed(1).padStart(idleTitle.length)}  ${afterTotal.padStart(afterTitle.length)}`,
  );
}
