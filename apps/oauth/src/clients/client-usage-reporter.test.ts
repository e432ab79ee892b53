import { testLogger } from '@authz/shared/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientUse } from '../protocol/client-authentication/clients-port.js';
import { ClientUsageReporter } from './client-usage-reporter.js';

function setUp(options: { maxPending?: number; intervalMs?: number } = {}) {
  const reports: ClientUse[][] = [];
  const send = vi.fn(async (uses: readonly ClientUse[]) => {
    reports.push([...uses]);
  });
  const log = testLogger();
  const warn = vi.spyOn(log, 'warn');
  const reporter = new ClientUsageReporter({ send, intervalMs: options.intervalMs ?? 5000, log, ...options });
  return { reporter, send, reports, warn };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ClientUsageReporter (interface.md 2.2, 2.4: coalesced lastUsedAt)', () => {
  it('reports the latest use per client and API key in one call', async () => {
    const { reporter, send, reports } = setUp();
    reporter.record({ id: 'c1', usedAt: 100 });
    reporter.record({ id: 'c1', usedAt: 300 });
    reporter.record({ id: 'c1', usedAt: 200 });
    reporter.record({ id: 'c1', apiKeyId: 'k1', usedAt: 250 });
    reporter.record({ id: 'c2', usedAt: 150 });
    reporter.record({ id: '', usedAt: 400 });
    await reporter.flush();
    expect(send).toHaveBeenCalledTimes(1);
    expect(reports[0]).toEqual([
      { id: 'c1', usedAt: 300 },
      { id: 'c1', apiKeyId: 'k1', usedAt: 250 },
      { id: 'c2', usedAt: 150 },
    ]);
    await reporter.flush();
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('keeps the uses of a failed report for the next one, and warns without them', async () => {
    const { reporter, send, reports, warn } = setUp();
    send.mockRejectedValueOnce(new Error('clients unavailable'));
    reporter.record({ id: 'c1', usedAt: 100 });
    reporter.record({ id: 'c2', usedAt: 100 });
    await reporter.flush();
    expect(warn).toHaveBeenCalledWith(
      { err: expect.any(Error), pendingUses: 2 },
      'client usage not reported: kept for the next report',
    );

    reporter.record({ id: 'c1', usedAt: 200 });
    reporter.record({ id: 'c3', usedAt: 200 });
    await reporter.flush();
    expect(send).toHaveBeenCalledTimes(2);
    expect(reports).toEqual([
      [
        { id: 'c2', usedAt: 100 },
        { id: 'c1', usedAt: 200 },
        { id: 'c3', usedAt: 200 },
      ],
    ]);
  });

  it('keeps at most maxPending uses, dropping the least recent', async () => {
    const { reporter, reports } = setUp({ maxPending: 2 });
    reporter.record({ id: 'c1', usedAt: 100 });
    reporter.record({ id: 'c2', usedAt: 100 });
    reporter.record({ id: 'c1', usedAt: 200 });
    reporter.record({ id: 'c3', usedAt: 300 });
    await reporter.flush();
    expect(reports[0]).toEqual([
      { id: 'c1', usedAt: 200 },
      { id: 'c3', usedAt: 300 },
    ]);
  });

  it('reports every interval once started, and what is left on close', async () => {
    vi.useFakeTimers();
    const { reporter, send, reports } = setUp({ intervalMs: 1000 });
    reporter.start();
    reporter.record({ id: 'c1', usedAt: 100 });
    await vi.advanceTimersByTimeAsync(999);
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(reports).toEqual([[{ id: 'c1', usedAt: 100 }]]);

    reporter.record({ id: 'c2', usedAt: 200 });
    await reporter.close();
    expect(reports).toEqual([[{ id: 'c1', usedAt: 100 }], [{ id: 'c2', usedAt: 200 }]]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('joins a report under way instead of sending the same uses twice', async () => {
    const { reporter, send } = setUp();
    let finish!: () => void;
    send.mockImplementationOnce(() => new Promise<void>((resolve) => (finish = resolve)));
    reporter.record({ id: 'c1', usedAt: 100 });
    const first = reporter.flush();
    const second = reporter.flush();
    finish();
    await Promise.all([first, second]);
    expect(send).toHaveBeenCalledTimes(1);
  });
});
