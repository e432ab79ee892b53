import { readdirSync, readFileSync } from 'node:fs';

/** Who used the machine's CPUs during a run, in cores (2.0 = both cores of a 2-core machine). */
export interface CpuUse {
  /** This process: autocannon. */
  loadGenerator: number;
  /** Every process the bench started (the launcher and the services, or oidc-provider). */
  servers: number;
  /** The same, per process: `gateway`, `oauth`, ... or `oidc-provider`. */
  byServer: Record<string, number>;
  /**
   * Of those, each process's main thread (its event loop and JavaScript) alone, summed over
   * replicas: the busiest thread is where requests queue, whatever cores are left over.
   */
  mainThreadByServer: Record<string, number>;
  /** Everything else on this machine: other users of it, and PostgreSQL and Redis. */
  outside: number;
  /**
   * Time the hypervisor ran other guests while this one wanted the CPU (steal, /proc/stat's
   * eighth field): cores this run did not get. On a shared virtual machine it moves from one
   * minute to the next and slows whichever server is being measured.
   */
  stolen: number;
}

interface Snapshot {
  machineBusy: number;
  machineStolen: number;
  machineTotal: number;
  self: number;
  descendants: number;
  byName: Map<string, number>;
  mainThreadByName: Map<string, number>;
}

/** Clock ticks from /proc (Linux); undefined elsewhere, and the figures are then left out. */
export function cpuSnapshot(): Snapshot | undefined {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
    const ticks = fields.map(Number);
    const machineTotal = ticks.reduce((sum, value) => sum + value, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    const stolen = ticks[7] ?? 0;
    return {
      machineBusy: machineTotal - idle - stolen,
      machineStolen: stolen,
      machineTotal,
      ...processTreeTicks(process.pid),
    };
  } catch {
    return undefined;
  }
}

export function cpuUse(
  before: Snapshot | undefined,
  after: Snapshot | undefined,
  cores: number,
): CpuUse | undefined {
  if (!before || !after) return undefined;
  // /proc/stat counts every core: ticks per core over the interval turn ticks into cores.
  const ticksPerCore = (after.machineTotal - before.machineTotal) / cores;
  if (ticksPerCore <= 0) return undefined;
  const loadGenerator = (after.self - before.self) / ticksPerCore;
  const servers = (after.descendants - before.descendants) / ticksPerCore;
  const busy = (after.machineBusy - before.machineBusy) / ticksPerCore;
  const coresByName = (afterTicks: Map<string, number>, beforeTicks: Map<string, number>) =>
    Object.fromEntries(
      [...afterTicks].map(([name, ticks]) => [name, (ticks - (beforeTicks.get(name) ?? 0)) / ticksPerCore]),
    );
  const stolen = (after.machineStolen - before.machineStolen) / ticksPerCore;
  return {
    loadGenerator,
    servers,
    byServer: coresByName(after.byName, before.byName),
    mainThreadByServer: coresByName(after.mainThreadByName, before.mainThreadByName),
    outside: Math.max(0, busy - loadGenerator - servers),
    stolen,
  };
}

/**
 * utime + stime of `root` and of all its descendants (living ones: the servers outlive every
 * run they are measured in). The launcher detaches its children into process groups of their
 * own, but they stay its children.
 */
function processTreeTicks(root: number): Omit<Snapshot, 'machineBusy' | 'machineStolen' | 'machineTotal'> {
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const pid = Number(entry);
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    ticks.set(pid, cpuTicks(stat));
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  let descendants = 0;
  const byName = new Map<string, number>();
  const mainThreadByName = new Map<string, number>();
  const pending = [...(children.get(root) ?? [])];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    const own = ticks.get(pid) ?? 0;
    descendants += own;
    const name = serverName(pid);
    if (name) {
      byName.set(name, (byName.get(name) ?? 0) + own);
      mainThreadByName.set(name, (mainThreadByName.get(name) ?? 0) + mainThreadTicks(pid));
    }
    pending.push(...(children.get(pid) ?? []));
  }
  return { self: ticks.get(root) ?? 0, descendants, byName, mainThreadByName };
}

/** utime + stime of the thread whose id is the process's own: the one that runs its event loop. */
function mainThreadTicks(pid: number): number {
  try {
    return cpuTicks(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
  } catch {
    return 0; // exited meanwhile
  }
}

/** utime + stime of a `stat` line: after "(comm)" come state, ppid, ..., utime (12th), stime (13th). */
function cpuTicks(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * `apps/<name>/dist/main.js` is <name>, `infra/local/dist/main.js` the launcher; the bench's
 * reference server is oidc-provider, its floor server the floor.
 */
export function serverName(pid: number): string | undefined {
  try {
    const script = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[1] ?? '';
    if (script.endsWith('reference-server.js')) return 'oidc-provider';
    if (script.endsWith('floor-server.js')) return 'floor';
    if (/\/infra\/local\/dist\/main\.js$/.test(script)) return 'launcher';
    return /\/apps\/([^/]+)\/dist\/main\.js$/.exec(script)?.[1];
  } catch {
    return undefined;
  }
}
