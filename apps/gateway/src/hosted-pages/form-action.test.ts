import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowFormActionOrigins } from './form-action.js';

// CSP Level 3 form-action: what a page's origins may do to the policy, and what they may not.
const POLICY = "default-src 'none';style-src 'self';form-action 'self';frame-ancestors 'none'";

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  app.post<{ Body: { policy: string; origins: string[] } }>('/', async (request, reply) => {
    // As the security headers plugin does: on the raw response, before the route runs.
    reply.raw.setHeader('content-security-policy', request.body.policy);
    allowFormActionOrigins(reply, request.body.origins);
    return reply.send('');
  });
  await app.ready();
});

afterAll(() => app.close());

async function policyFor(origins: string[], policy = POLICY): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/', payload: { policy, origins } });
  return response.headers['content-security-policy'] as string;
}

describe('allowFormActionOrigins', () => {
  it('adds the named origins to form-action and changes nothing else', async () => {
    expect(await policyFor(['https://app.example', 'http://127.0.0.1:8080'])).toBe(
      "default-src 'none';style-src 'self';form-action 'self' https://app.example http://127.0.0.1:8080;" +
        "frame-ancestors 'none'",
    );
  });

  it('drops anything that is not a serialized http(s) origin', async () => {
    const hostile = [
      'https://app.example/callback',
      "https://app.example 'unsafe-inline'",
      'https://app.example;script-src *',
      '*',
      'https:',
      'javascript:alert(1)',
      'data:text/html,x',
      'HTTPS://APP.EXAMPLE',
      '',
    ];
    expect(await policyFor(hostile)).toBe(POLICY);
    expect(await policyFor([...hostile, 'https://app.example'])).toBe(
      POLICY.replace("form-action 'self'", "form-action 'self' https://app.example"),
    );
  });

  it('leaves a policy without form-action, or a page without origins, as it is', async () => {
    const unrestricted = "default-src 'none';frame-ancestors 'none'";
    expect(await policyFor(['https://app.example'], unrestricted)).toBe(unrestricted);
    expect(await policyFor([])).toBe(POLICY);
  });
});
