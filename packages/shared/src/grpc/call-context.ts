import type { Logger } from 'pino';
import type { CallContext } from './service-types.js';

/**
 * The CallContext of one server call. Its logger and abort signal are made on first use: most
 * handlers never touch them, and a pino child (redacted bindings) plus an AbortController per
 * call are a measurable share of a cheap RPC (docs/performance.md #3).
 */
export class UnaryCallContext implements CallContext {
  private child: Logger | undefined;
  private controller: AbortController | undefined;
  private state: 'running' | 'cancelled' | 'finished' = 'running';

  constructor(
    private readonly logger: Logger,
    private readonly rpc: string,
    readonly requestId: string,
  ) {}

  get log(): Logger {
    this.child ??= this.logger.child({ rpc: this.rpc, requestId: this.requestId });
    return this.child;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.state === 'cancelled') this.controller.abort();
    }
    return this.controller.signal;
  }

  /**
   * The caller cancelled or its deadline passed. grpc-js also reports "cancelled" when the
   * stream of a call that already answered closes; nothing is waiting then, so nothing aborts.
   */
  cancel(): void {
    if (this.state !== 'running') return;
    this.state = 'cancelled';
    this.controller?.abort();
  }

  /** The handler settled: a later cancellation has nobody left to tell. */
  finish(): void {
    if (this.state === 'running') this.state = 'finished';
  }
}
