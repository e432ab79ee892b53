import { performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How often the event loop's idleness is read. */
export const IDLE_CHECK_MS = 1000;
/** Below this share of busy event loop over one check, the process counts as idle. */
export const IDLE_UTILIZATION = 0.02;
/** Collections tried in one idle spell before waiting for the next busy one. */
export const IDLE_COLLECTIONS = 8;
/** The young generation's size at start (two 1 MB semi-spaces, Node 20 on 64 bits). */
export const SMALL_YOUNG_GENERATION = 2 * 1024 * 1024;

/**
 * Gives back, once the process is idle, what start-up or a burst of load left behind
 * (docs/performance.md, "Memory"). Loading the modules and building the app, like heavy load,
 * allocate fast and keep much of it, so V8 grows the young generation to its largest size
 * (two 16 MB semi-spaces); V8 only shrinks it again in a full collection that sees less than
 * about 1 MB/s allocated over the last 5 s, and at idle no collection comes. So while the event
 * loop stays idle, one full collection a second, until the young generation is back to its
 * starting size (usually the sixth, once 5 s of idleness are behind), at most
 * `IDLE_COLLECTIONS` per idle spell: 25 to 30 MB less resident per process. No heap size is
 * limited: under load the young generation grows again as V8 sees fit. The timer never keeps
 * the process alive.
 */
export function releaseMemoryWhenIdle(probes: IdleMemoryProbes = V8_PROBES): { stop(): void } {
  let tries = 0;
  const timer = setInterval(() => {
    if (probes.busyShare() > IDLE_UTILIZATION) tries = 0;
    else if (tries < IDLE_COLLECTIONS && probes.youngGenerationSize() > SMALL_YOUNG_GENERATION) {
      tries += 1;
      probes.collectGarbage();
    }
  }, IDLE_CHECK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** What the policy above reads and does; tests pass their own. */
export interface IdleMemoryProbes {
  /** The event loop's busy share since the previous call. */
  busyShare(): number;
  youngGenerationSize(): number;
  collectGarbage(): void;
}

const V8_PROBES: IdleMemoryProbes = {
  busyShare: eventLoopBusyShare(),
  youngGenerationSize,
  collectGarbage,
};

function eventLoopBusyShare(): () => number {
  let previous = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(now, previous).utilization;
    previous = now;
    return share;
  };
}

function youngGenerationSize(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

let gc: (() => void) | undefined;

/**
 * A full collection through V8's `gc`: `--expose-gc` is set only while a throw-away context is
 * made, whose global `gc` is V8's, then unset, so no other code sees a `gc`.
 */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    try {
      gc = runInNewContext('gc') as () => void;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  gc();
}
