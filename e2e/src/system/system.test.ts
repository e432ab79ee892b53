import { describe, expect, it } from 'vitest';
import { useSuite } from '../support/use-suite.js';
import { GREETING } from '@authz/gateway';

const context = useSuite({
  gatewayEnv: { BODY_LIMIT: '1024' },
  beforeListen: ({ app }) => {
    // A JSON route exercising the gateway's body parsing and schema validation.
    app.post(
      '/probe',
      {
        schema: {
          body: {
            type: 'object',
            required: ['name', 'email'],
            properties: {
              name: { type: 'string', minLength: 1 },
              email: { type: 'string', format: 'email' },
            },
          },
        },
      },
      async () => ({ ok: true }),
    );
  },
});

const url = context.url;

describe('GET /', () => {
  it('answers the fixed greeting with security headers and a request id', async () => {
    const response = await fetch(url('/'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ message: GREETING });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('echoes a well-formed incoming request id and replaces a malformed one', async () => {
    const kept = await fetch(url('/'), { headers: { 'x-request-id': 'trace-abc.1' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-abc.1');
    const replaced = await fetch(url('/'), { headers: { 'x-request-id': 'bad id\twith spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET /health', () => {
  it('reports database and cache connected', async () => {
    // Polled: a cold start on a loaded machine may miss the 1 s deadline once.
    await expect.poll(async () => (await fetch(url('/health'))).status, { timeout: 15_000 }).toBe(200);
    const response = await fetch(url('/health'));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { timestamp: string };
    expect(body).toEqual({
      status: 'ok',
      timestamp: expect.any(String),
      services: { database: 'connected', cache: 'connected' },
    });
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
  });
});

describe('GET /metrics', () => {
  it('exposes process metrics and the login and token counters', async () => {
    const response = await fetch(url('/metrics'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('# TYPE login_attempts_total counter');
    expect(text).toContain('# TYPE tokens_issued_total counter');
    expect(text).toMatch(/^process_cpu_user_seconds_total\{service="gateway"\} \d/m);
    expect(text).toContain('http_request_duration_seconds_bucket');
  });
});

describe('error envelopes', () => {
  it('answers unknown routes with the 404 envelope', async () => {
    const response = await fetch(url('/no/such/route'));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Not found', statusCode: 404, code: 'NOT_FOUND' });
  });

  it('answers malformed JSON with the 400 envelope', async () => {
    const response = await fetch(url('/probe'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'Malformed request body',
      statusCode: 400,
      code: 'MALFORMED_BODY',
    });
  });

  it('answers schema violations with one detail per rejected field', async () => {
    const response = await fetch(url('/probe'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '', email: 'not-an-email' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'Validation error',
      code: 'VALIDATION_ERROR',
      statusCode: 400,
      details: [
        { path: 'name', message: 'must NOT have fewer than 1 characters' },
        { path: 'email', message: 'must match format "email"' },
      ],
    });
  });

  it('answers an oversized body with the 413 envelope', async () => {
    const response = await fetch(url('/probe'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(2048), email: 'a@example.com' }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: 'Request body too large',
      statusCode: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('answers an unsupported content type with the 415 envelope', async () => {
    const response = await fetch(url('/probe'), {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<a/>',
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      error: 'Unsupported media type',
      statusCode: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
  });
});
