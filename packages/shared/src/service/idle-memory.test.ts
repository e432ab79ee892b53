import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  collectGarbage,
  IDLE_CHECK_MS,
  IDLE_COLLECTIONS,
  releaseMemoryWhenIdle,
  SMALL_YOUNG_GENERATION,
  type IdleMemoryProbes,
} from './idle-memory.js';

const GROWN = 32 * 1024 * 1024;

/** A process whose busy share and young generation the test sets; a collection shrinks it when `shrinks`. */
function fakeProcess() {
  const state = { busy: 0, young: GROWN, shrinks: false, collections: 0 };
  const probes: IdleMemoryProbes = {
    busyShare: () => state.busy,
    youngGenerationSize: () => state.young,
    collectGarbage: () => {
      state.collections += 1;
      if (state.shrinks) state.young = SMALL_YOUNG_GENERATION;
    },
  };
  return { state, probes };
}

describe('releaseMemoryWhenIdle (docs/performance.md, "Memory")', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('collects once a check while idle, until the young generation is small again', () => {
    const { state, probes } = fakeProcess();
    const idle = releaseMemoryWhenIdle(probes);
    vi.advanceTimersByTime(3 * IDLE_CHECK_MS);
    expect(state.collections).toBe(3);
    state.shrinks = true;
    vi.advanceTimersByTime(IDLE_CHECK_MS);
    expect(state.collections).toBe(4);
    vi.advanceTimersByTime(10 * IDLE_CHECK_MS);
    expect(state.collections).toBe(4);
    idle.stop();
  });

  it('never collects while busy', () => {
    const { state, probes } = fakeProcess();
    state.busy = 0.5;
    const idle = releaseMemoryWhenIdle(probes);
    vi.advanceTimersByTime(20 * IDLE_CHECK_MS);
    expect(state.collections).toBe(0);
    idle.stop();
  });

  it('tries a bounded number of times per idle spell, and again after a busy one', () => {
    const { state, probes } = fakeProcess();
    const idle = releaseMemoryWhenIdle(probes);
    vi.advanceTimersByTime(3 * IDLE_COLLECTIONS * IDLE_CHECK_MS);
    expect(state.collections).toBe(IDLE_COLLECTIONS);
    state.busy = 0.5;
    vi.advanceTimersByTime(IDLE_CHECK_MS);
    state.busy = 0;
    vi.advanceTimersByTime(IDLE_CHECK_MS);
    expect(state.collections).toBe(IDLE_COLLECTIONS + 1);
    idle.stop();
    vi.advanceTimersByTime(10 * IDLE_CHECK_MS);
    expect(state.collections).toBe(IDLE_COLLECTIONS + 1);
  });

  it('collects for real through V8 without exposing gc to the process', () => {
    vi.useRealTimers();
    let collected = false;
    const registry = new FinalizationRegistry(() => (collected = true));
    // Made in a frame of its own, so no register of this one still holds it.
    (() => registry.register({ garbage: true }, 'garbage'))();
    collectGarbage();
    collectGarbage();
    expect('gc' in globalThis).toBe(false);
    return vi.waitFor(() => expect(collected).toBe(true), { timeout: 2000 });
  });
});
