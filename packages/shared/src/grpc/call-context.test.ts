import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger/index.js';
import { UnaryCallContext } from './call-context.js';

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ service: 'test', level: 'info', destination }), lines };
}

describe('UnaryCallContext', () => {
  it('aborts the signal when the caller cancels while the handler runs', () => {
    const context = new UnaryCallContext(capturingLogger().logger, 'test.check', 'req-1');
    const signal = context.signal;
    expect(signal.aborted).toBe(false);
    context.cancel();
    expect(signal.aborted).toBe(true);
  });

  it('hands out an aborted signal when the cancellation came before the handler asked', () => {
    const context = new UnaryCallContext(capturingLogger().logger, 'test.check', 'req-1');
    context.cancel();
    expect(context.signal.aborted).toBe(true);
  });

  it('does not abort once the handler has settled (grpc-js reports every closed stream)', () => {
    const context = new UnaryCallContext(capturingLogger().logger, 'test.check', 'req-1');
    const signal = context.signal;
    context.finish();
    context.cancel();
    expect(signal.aborted).toBe(false);
    expect(context.signal).toBe(signal);
  });

  it('logs with the rpc and request id, through one child logger', () => {
    const { logger, lines } = capturingLogger();
    const context = new UnaryCallContext(logger, 'test.check', 'req-7');
    expect(context.log).toBe(context.log);
    context.log.info({ token: 'secret-value' }, 'rpc refused');
    expect(lines).toEqual([
      expect.objectContaining({
        rpc: 'test.check',
        requestId: 'req-7',
        token: '[redacted]',
        msg: 'rpc refused',
      }),
    ]);
  });
});
