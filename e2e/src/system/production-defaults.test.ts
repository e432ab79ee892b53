import { describe, expect, it } from 'vitest';
import {
  clientCredentialsToken,
  countStatuses,
  machineClient,
  runLoad,
  type Answer,
} from '../support/load.js';
import { postJson } from '../support/http.js';
import { useSuite } from '../support/use-suite.js';

// The shipped rate limits (docs/security.md #11): no budget is overridden here. TRUST_PROXY
// only lets the tests speak from other addresses, through X-Forwarded-For.
const context = useSuite({ gatewayEnv: { TRUST_PROXY: '127.0.0.1' } });

const RATE_LIMITED = { error: 'Too many requests', statusCode: 429, code: 'RATE_LIMITED' };
const LOGIN_WINDOW_SECONDS = 300;

async function fetchJwks(): Promise<Answer> {
  const sentAt = Date.now();
  const response = await fetch(context.url('/.well-known/jwks.json'));
  const body = (await response.json()) as Record<string, unknown>;
  return { status: response.status, body, sentAt, answeredAt: Date.now() };
}

function login(email: string, password: string, address: string) {
  return postJson(context.url('/auth/login'), { email, password }, { 'x-forwarded-for': address });
}

function expectRateLimited(answer: Awaited<ReturnType<typeof login>>) {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual(RATE_LIMITED);
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(LOGIN_WINDOW_SECONDS);
}

describe('the shipped rate limits', () => {
  it(
    'serve a backend asking for 2,000 tokens and 2,000 JWKS from one address without a 429',
    { timeout: 180_000 },
    async () => {
      const { headers } = await machineClient(context.suite);
      // 20 requests in flight from the one address, half at each endpoint.
      const [tokens, keys] = await Promise.all([
        runLoad(2000, 10, () => clientCredentialsToken(context.suite, headers)),
        runLoad(2000, 10, fetchJwks),
      ]);
      expect(countStatuses(tokens)).toEqual({ 200: 2000 });
      expect(countStatuses(keys)).toEqual({ 200: 2000 });
    },
  );

  it(
    'refuse the eleventh wrong password for one account, from whatever address',
    { timeout: 60_000 },
    async () => {
      const email = `owner${Date.now()}@example.com`;
      const password = 'amber-Falcon-meadow-27';
      expect((await postJson(context.url('/auth/register'), { email, password })).status).toBe(201);
      // The owner signs in once from 127.0.0.1: one attempt of the account's budget, and an
      // address the account now knows (docs/security.md #5).
      expect((await postJson(context.url('/auth/login'), { email, password })).status).toBe(200);

      const answers = [];
      for (let attempt = 1; attempt <= 30; attempt += 1) {
        answers.push(await login(email, 'wrong-password-42', `198.51.100.${attempt}`));
      }
      expect(countStatuses(answers.map(({ status }) => ({ status }) as Answer))).toEqual({ 401: 9, 429: 21 });
      expect(answers.slice(0, 9).every(({ status }) => status === 401)).toBe(true);
      expectRateLimited(answers[9]!);

      // Others' failures do not lock the owner out of the address they use.
      expect((await postJson(context.url('/auth/login'), { email, password })).status).toBe(200);
    },
  );

  it(
    'count sign-ins from one IPv6 /64 together, whatever the accounts and addresses',
    { timeout: 60_000 },
    async () => {
      const answers = [];
      for (let attempt = 1; attempt <= 30; attempt += 1) {
        const address = `2001:db8:7:1:${attempt.toString(16)}::${attempt.toString(16)}`;
        answers.push(await login(`nobody${attempt}@example.com`, 'wrong-password-42', address));
      }
      expect(countStatuses(answers.map(({ status }) => ({ status }) as Answer))).toEqual({
        401: 10,
        429: 20,
      });
      expectRateLimited(answers[10]!);
      // Another /64 of the same /48 has a budget of its own.
      expect((await login('nobody@example.com', 'wrong-password-42', '2001:db8:7:2::1')).status).toBe(401);
    },
  );
});
