import { Writable } from 'node:stream';
import { createLogger } from '@authz/shared/logger';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyChildLoggerFactory } from './lazy-request-logger.js';

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
    done();
  },
});

async function appLoggingAt(level: string) {
  const logger = createLogger({ service: 'test', level, destination: sink });
  const child = vi.spyOn(logger, 'child');
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    childLoggerFactory: lazyChildLoggerFactory,
    disableRequestLogging: true,
    genReqId: () => 'req-1',
  });
  app.get('/quiet', async (request) => {
    request.log.debug({ password: 'hunter2' }, 'below the level');
    request.log.info('below the level too');
    return { ok: true };
  });
  app.get('/warns', async (request) => {
    request.log.warn({ password: 'hunter2', detail: 'kept' }, 'first line');
    request.log.error('second line');
    request.log.info('still below the level');
    return { ok: true };
  });
  app.get('/chatty', { logLevel: 'debug' }, async (request) => {
    request.log.debug('route level lowered');
    return { level: request.log.level };
  });
  await app.ready();
  // Fastify's own child of the instance, made once at start-up, is not a request's.
  child.mockClear();
  return { app, child };
}

afterEach(() => {
  lines.length = 0;
});

describe('lazyChildLoggerFactory', () => {
  it('makes no child logger for a request that writes nothing at an enabled level', async () => {
    const { app, child } = await appLoggingAt('warn');
    const response = await app.inject({ method: 'GET', url: '/quiet' });
    expect(response.statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    await app.close();
  });

  it('writes enabled lines through one real child: request id bound, secrets redacted', async () => {
    const { app, child } = await appLoggingAt('warn');
    await app.inject({ method: 'GET', url: '/warns' });
    expect(child).toHaveBeenCalledTimes(1);
    expect(child).toHaveBeenCalledWith({ reqId: 'req-1' }, {});
    expect(
      lines.map(({ level, msg, reqId, password, detail }) => ({ level, msg, reqId, password, detail })),
    ).toEqual([
      { level: 'warn', msg: 'first line', reqId: 'req-1', password: '[redacted]', detail: 'kept' },
      { level: 'error', msg: 'second line', reqId: 'req-1', password: undefined, detail: undefined },
    ]);
    await app.close();
  });

  it("honours a route's own log level", async () => {
    const { app } = await appLoggingAt('warn');
    const response = await app.inject({ method: 'GET', url: '/chatty' });
    expect(response.json()).toEqual({ level: 'debug' });
    expect(lines.map(({ level, msg, reqId }) => ({ level, msg, reqId }))).toEqual([
      { level: 'debug', msg: 'route level lowered', reqId: 'req-1' },
    ]);
    await app.close();
  });

  it('writes nothing at all when the logger is silent', async () => {
    const { app, child } = await appLoggingAt('silent');
    await app.inject({ method: 'GET', url: '/warns' });
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    await app.close();
  });
});
