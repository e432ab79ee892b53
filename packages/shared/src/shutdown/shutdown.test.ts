import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger/index.js';
import { ShutdownManager } from './index.js';

const logger = createLogger({ service: 'test', level: 'silent' });

describe('ShutdownManager', () => {
  it('closes resources last-opened-first, once', async () => {
    const closed: string[] = [];
    const manager = new ShutdownManager(logger);
    manager.register('database', () => closed.push('database'));
    manager.register('grpc', async () => closed.push('grpc'));
    await Promise.all([manager.shutdown('test'), manager.shutdown('again')]);
    expect(closed).toEqual(['grpc', 'database']);
  });

  it('still closes the rest when one closer fails, then reports failure', async () => {
    const closed: string[] = [];
    const manager = new ShutdownManager(logger);
    manager.register('database', () => closed.push('database'));
    manager.register('broken', () => {
      throw new Error('boom');
    });
    await expect(manager.shutdown('test')).rejects.toThrow('some resources failed to close');
    expect(closed).toEqual(['database']);
  });

  it('also closes what a start-up still running registers once the shutdown began', async () => {
    const closed: string[] = [];
    const manager = new ShutdownManager(logger);
    let releaseTelemetry!: () => void;
    manager.register('telemetry', () =>
      new Promise<void>((resolve) => (releaseTelemetry = resolve)).then(() => closed.push('telemetry')),
    );
    expect(manager.stopping).toBe(false);
    const stopped = manager.shutdown('SIGTERM');
    expect(manager.stopping).toBe(true);
    // The build finished meanwhile and opened its server: it must not outlive the process.
    manager.register('grpc', () => closed.push('grpc'));
    releaseTelemetry();
    await stopped;
    expect(closed).toEqual(['telemetry', 'grpc']);
  });
});
