/**
 * What to undo, newest first: stop the servers, then drop the database and Redis keys they used.
 * A step that fails is reported and the others still run.
 */
export class Teardown {
  private readonly steps: { what: string; undo: () => Promise<unknown>; kill?: () => void }[] = [];
  private running: Promise<boolean> | undefined;

  add(what: string, undo: () => Promise<unknown>, kill?: () => void): void {
    this.steps.push({ what, undo, ...(kill ? { kill } : {}) });
  }

  /** True when every step succeeded. Idempotent. */
  run(report: (line: string) => void): Promise<boolean> {
    return (this.running ??= (async () => {
      let clean = true;
      for (const { what, undo } of [...this.steps].reverse()) {
        try {
          await undo();
        } catch (error) {
          clean = false;
          report(`could not ${what}: ${(error as Error).message}`);
        }
      }
      return clean;
    })());
  }

  /** Second Ctrl-C: no more waiting for graceful stops. */
  kill(): void {
    for (const step of this.steps) step.kill?.();
  }
}
