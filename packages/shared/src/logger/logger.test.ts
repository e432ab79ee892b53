import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './index.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ service: 'test', level: 'info', destination }) };
}

describe('logger redaction (docs/conventions.md #10)', () => {
  it('censors credentials and tokens at the top level and one level down', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        password: 'hunter2-secret',
        refresh_token: 'a'.repeat(64),
        body: { client_secret: 'shh', code: 'auth-code', email: 'ann@example.com' },
        headers: { authorization: 'Bearer eyJ...', cookie: '__Host-service_session=x' },
      },
      'login',
    );
    expect(lines[0]).toMatchObject({
      service: 'test',
      level: 'info',
      password: '[redacted]',
      refresh_token: '[redacted]',
      body: { client_secret: '[redacted]', code: '[redacted]', email: 'ann@example.com' },
      headers: { authorization: '[redacted]', cookie: '[redacted]' },
      msg: 'login',
    });
    expect(JSON.stringify(lines[0])).not.toMatch(/hunter2|shh|auth-code|eyJ|aaaa/);
  });
});
