import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The parts of a V8 `.cpuprofile` (what `--cpu-prof` writes) read here. */
interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  /** Microseconds on the monotonic clock `process.hrtime` reads. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export interface HotSpot {
  name: string;
  /** Where it comes from: the app's own code, a package, Node itself or a V8 pseudo-frame. */
  origin: string;
  location: string;
  /** Share of the busy (non-idle) samples of the window. */
  share: number;
  /** Its most frequent caller from another origin (not node core): who to ask about it. */
  via: string;
}

export interface ProcessProfile {
  process: string;
  /** Share of the window the main thread was busy: roughly the cores it used, out of one. */
  busy: number;
  samples: number;
  functions: HotSpot[];
  origins: { origin: string; share: number }[];
}

/** What cpu-profiler-preload.ts wrote for `name` (`<name>.<pid>.cpuprofile`) in `dir`. */
export async function findProfile(dir: string, name: string): Promise<string | undefined> {
  const file = (await readdir(dir)).find(
    (entry) => entry.startsWith(`${name}.`) && entry.endsWith('.cpuprofile'),
  );
  return file && join(dir, file);
}

/** Self time per function over the samples taken in [startMicros, endMicros]. */
export async function summariseProfile(
  processName: string,
  file: string,
  window: { startMicros: number; endMicros: number },
  root: string,
): Promise<ProcessProfile> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const describe = (frame: CallFrame) =>
    `${frame.functionName || '(anonymous)'} ${frame.url ? `${shortUrl(frame.url, root)}:${frame.lineNumber + 1}` : ''}`.trim();
  const viaOf = (nodeId: number, origin: string): string => {
    for (let id = parents.get(nodeId); id !== undefined; id = parents.get(id)) {
      const frame = frames.get(id)!;
      const callerOrigin = originOf(frame);
      if (frame.url && callerOrigin !== origin && callerOrigin !== 'node core') return describe(frame);
    }
    return '';
  };

  const spots = new Map<
    string,
    { hotSpot: Omit<HotSpot, 'share' | 'via'>; count: number; vias: Map<string, number> }
  >();
  let time = profile.startTime;
  let inWindow = 0;
  let busy = 0;
  profile.samples.forEach((nodeId, index) => {
    time += profile.timeDeltas[index] ?? 0;
    if (time < window.startMicros || time > window.endMicros) return;
    inWindow += 1;
    const frame = frames.get(nodeId);
    if (!frame || frame.functionName === '(idle)') return;
    busy += 1;
    const location = frame.url ? `${shortUrl(frame.url, root)}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName}@${location}`;
    const origin = originOf(frame);
    const entry = spots.get(key) ?? {
      hotSpot: { name: frame.functionName || '(anonymous)', origin, location },
      count: 0,
      vias: new Map<string, number>(),
    };
    entry.count += 1;
    const via = viaOf(nodeId, origin);
    entry.vias.set(via, (entry.vias.get(via) ?? 0) + 1);
    spots.set(key, entry);
  });
  const share = (count: number) => (busy === 0 ? 0 : count / busy);
  const functions = [...spots.values()]
    .sort((a, b) => b.count - a.count)
    .map(({ hotSpot, count, vias }) => ({
      ...hotSpot,
      share: share(count),
      via: [...vias.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '',
    }));
  const origins = new Map<string, number>();
  for (const { hotSpot, count } of spots.values())
    origins.set(hotSpot.origin, (origins.get(hotSpot.origin) ?? 0) + count);
  return {
    process: processName,
    busy: inWindow === 0 ? 0 : busy / inWindow,
    samples: inWindow,
    functions,
    origins: [...origins.entries()]
      .map(([origin, count]) => ({ origin, share: share(count) }))
      .sort((a, b) => b.share - a.share),
  };
}

/** Groups a frame: (garbage collector) and the like, node core, a package, or a workspace folder. */
function originOf({ functionName, url }: { functionName: string; url: string }): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node core';
  const inPackage = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (inPackage?.[1]) return inPackage[1];
  const inWorkspace = /\/((?:apps|packages)\/[^/]+)\//.exec(url);
  return inWorkspace?.[1] ?? 'other';
}

/** Repository-relative, with pnpm's store folders cut down to the package's own path. */
function shortUrl(url: string, root: string): string {
  const path = url.replace(/^file:\/\//, '');
  const inPackage = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+\/.*)$/.exec(path);
  if (inPackage?.[1]) return inPackage[1];
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/** The summaries of `windows` (process name and measured window); a missing profile is reported. */
export async function readProfiles(
  dir: string,
  windows: { name: string; window: { startMicros: number; endMicros: number } }[],
  root: string,
  report: (line: string) => void,
): Promise<ProcessProfile[]> {
  const profiles: ProcessProfile[] = [];
  for (const { name, window } of windows) {
    const file = await findProfile(dir, name);
    if (file) profiles.push(await summariseProfile(name, file, window, root));
    else report(`no CPU profile of ${name} in ${dir}`);
  }
  return profiles;
}
