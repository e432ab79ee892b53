import { readdirSync, readFileSync } from 'node:fs';
import { serverName } from './cpu-usage.js';

/** Resident memory of one process the bench started, in kB as /proc reports it. */
export interface ProcessMemory {
  name: string;
  /** VmRSS: every page the process maps, shared ones included. */
  residentKb: number;
  /**
   * Pss (smaps_rollup): each page divided by the number of processes sharing it, so the sum over
   * the suite counts Node's own code, which every service maps, once rather than eight times.
   */
  proportionalKb: number;
}

/**
 * VmRSS (/proc/<pid>/status) of `root` and of every living descendant, named as the CPU split
 * names them (cpu-usage.ts): the launcher, then gateway, oauth, ... A second process of the same
 * name (an oauth replica) gets its number. Linux only: elsewhere the list is empty. RSS counts
 * pages shared between processes (Node's own code) once per process, so its total overstates
 * what the suite holds; the total of Pss is what the suite occupies (a page shared with a
 * process outside the suite, such as the bench's own Node, is split with it, so a little less).
 */
export function residentMemory(root: number): ProcessMemory[] {
  const children = new Map<number, number[]>();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const ppid = parentOf(Number(entry));
      if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    }
  } catch {
    return [];
  }
  const found: ProcessMemory[] = [];
  const seen = new Map<string, number>();
  const pending = [root];
  for (let pid = pending.shift(); pid !== undefined; pid = pending.shift()) {
    const residentKb = vmRss(pid);
    if (residentKb !== undefined) {
      const base = serverName(pid) ?? commandName(pid);
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      const proportionalKb = pss(pid) ?? residentKb;
      found.push({ name: count === 1 ? base : `${base} ${count}`, residentKb, proportionalKb });
    }
    pending.push(...(children.get(pid) ?? []).sort((a, b) => a - b));
  }
  return found;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm)": state ppid ...
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined; // exited meanwhile
  }
}

function vmRss(pid: number): number | undefined {
  try {
    const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}

function pss(pid: number): number | undefined {
  try {
    const line = /^Pss:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return line ? Number(line[1]) : undefined;
  } catch {
    return undefined;
  }
}

function commandName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return String(pid);
  }
}
