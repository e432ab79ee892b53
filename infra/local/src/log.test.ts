import { describe, expect, it } from 'vitest';
import { formatLogLine } from './log.js';

describe('formatLogLine', () => {
  it('turns a pino line into level, message and the remaining fields', () => {
    const line = JSON.stringify({
      level: 40,
      time: 1,
      pid: 2,
      hostname: 'h',
      service: 'oauth',
      msg: 'slow',
      ms: 12,
    });
    expect(formatLogLine(line)).toEqual(['WARN slow {"ms":12}']);
  });

  it('reads level labels and ISO times as the services write them', () => {
    const line = JSON.stringify({
      level: 'info',
      time: '2026-01-01T00:00:00.000Z',
      service: 'oauth',
      msg: 'service started',
      grpcPort: 50052,
    });
    expect(formatLogLine(line)).toEqual(['INFO service started {"grpcPort":50052}']);
  });

  it('prints an error stack below the message', () => {
    const line = JSON.stringify({
      level: 50,
      msg: 'boom',
      err: { type: 'Error', message: 'x', stack: 'Error: x\n    at f' },
    });
    expect(formatLogLine(line)).toEqual(['ERROR boom', '    Error: x', '        at f']);
  });

  it('passes anything else through', () => {
    expect(formatLogLine('plain text')).toEqual(['plain text']);
    expect(formatLogLine('{not json')).toEqual(['{not json']);
    expect(formatLogLine('{"a":1}')).toEqual(['{"a":1}']);
  });
});
