import type { Logger } from '@authz/shared/logger';
import type { ClientUse, ClientUsageLog } from '../protocol/client-authentication/clients-port.js';

export interface ClientUsageReporterOptions {
  /** One RecordClientUsage call. */
  send(uses: readonly ClientUse[]): Promise<void>;
  intervalMs: number;
  log: Logger;
  /** Bound of the uses kept between reports; the least recent goes first. */
  maxPending?: number;
}

/**
 * Coalesced lastUsedAt (interface.md 2.2, 2.4; docs/tokens.md #18): a token request only notes its
 * use in memory, the latest per client and API key; one RecordClientUsage call reports them
 * every `intervalMs` and on close. A failed report keeps its uses for the next one.
 */
export class ClientUsageReporter implements ClientUsageLog {
  private pending = new Map<string, ClientUse>();
  private reporting: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly maxPending: number;

  constructor(private readonly options: ClientUsageReporterOptions) {
    this.maxPending = options.maxPending ?? 10_000;
  }

  start(): this {
    this.timer ??= setInterval(() => void this.flush(), this.options.intervalMs);
    // Reporting never keeps the process alive on its own.
    this.timer.unref();
    return this;
  }

  /** Uses without a record id (the first-party client, CIMD clients) have nothing to update. */
  record(use: ClientUse): void {
    if (use.id === '') return;
    const key = `${use.id}\n${use.apiKeyId ?? ''}`;
    const known = this.pending.get(key);
    if (known && known.usedAt >= use.usedAt) return;
    this.pending.delete(key);
    if (this.pending.size >= this.maxPending) this.dropLeastRecent();
    this.pending.set(key, use);
  }

  /** Reports what is pending; joins a report already under way. */
  flush(): Promise<void> {
    this.reporting ??= this.report().finally(() => {
      this.reporting = undefined;
    });
    return this.reporting;
  }

  /** Stops the timer and reports what is left. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.reporting;
    await this.flush();
  }

  private async report(): Promise<void> {
    if (this.pending.size === 0) return;
    const uses = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.options.send(uses);
    } catch (error) {
      // Back in front of the uses noted meanwhile, so the bound drops the oldest first.
      const noted = this.pending;
      this.pending = new Map();
      for (const use of [...uses, ...noted.values()]) this.record(use);
      this.options.log.warn(
        { err: error, pendingUses: this.pending.size },
        'client usage not reported: kept for the next report',
      );
    }
  }

  private dropLeastRecent(): void {
    const oldest = this.pending.keys().next();
    if (!oldest.done) this.pending.delete(oldest.value);
  }
}
