import type { Logger } from 'pino';

type Closer = () => Promise<unknown> | unknown;

/**
 * Closes what a process opened, last opened first, once, within a time budget; then exits.
 * main.ts registers each resource right after creating it.
 */
export class ShutdownManager {
  private readonly closers: { name: string; close: Closer }[] = [];
  private closing: Promise<void> | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly timeoutMs = 10_000,
  ) {}

  /** True once a shutdown began: a start-up cut short by it is not a start-up failure. */
  get stopping(): boolean {
    return this.closing !== undefined;
  }

  register(name: string, close: Closer): void {
    this.closers.push({ name, close });
  }

  /** Runs every closer in reverse order; safe to call more than once. */
  shutdown(reason: string): Promise<void> {
    this.closing ??= this.closeAll(reason);
    return this.closing;
  }

  /**
   * SIGTERM / SIGINT: close cleanly and exit 0, or 1 when something failed or hung. Handlers are
   * installed once: the same signal again meets Node's default and ends the process at once.
   */
  listen(exit: (code: number) => void = (code) => process.exit(code)): void {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        const timer = setTimeout(() => {
          this.logger.error({ signal }, 'shutdown timed out');
          exit(1);
        }, this.timeoutMs);
        timer.unref();
        this.shutdown(signal).then(
          () => exit(0),
          () => exit(1),
        );
      });
    }
  }

  private async closeAll(reason: string): Promise<void> {
    this.logger.info({ reason }, 'shutting down');
    let failed = false;
    // Popped one by one, so a resource opened by a start-up still running is closed too.
    for (let closer = this.closers.pop(); closer; closer = this.closers.pop()) {
      const { name, close } = closer;
      try {
        await close();
      } catch (error) {
        failed = true;
        this.logger.error({ err: error, resource: name }, 'close failed');
      }
    }
    this.logger.info('stopped');
    if (failed) throw new Error('some resources failed to close');
  }
}
