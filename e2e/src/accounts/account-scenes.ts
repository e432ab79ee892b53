import type { ReceivedMail } from '@authz/shared/smtp-sink';
import { expect } from 'vitest';
import { call } from '../support/clients.js';
import type { SuiteContext } from '../support/use-suite.js';

// Shared scenes of the account-lifecycle tests (interface.md 4.10).

export const PASSWORD = 'violet-Lantern-harbor-93';
export const NEW_PASSWORD = 'copper-Meadow-lantern-58';

export const INVALID_TOKEN = { error: 'Invalid or expired token', statusCode: 400, code: 'INVALID_TOKEN' };
export const UNAUTHORIZED = { error: 'Unauthorized', statusCode: 401, code: 'UNAUTHORIZED' };
export const INVALID_CREDENTIALS = {
  error: 'Invalid email or password',
  statusCode: 401,
  code: 'INVALID_CREDENTIALS',
};
export const RATE_LIMITED = { error: 'Too many requests', statusCode: 429, code: 'RATE_LIMITED' };

let sequence = 0;
export const newEmail = (label: string) => `${label}${Date.now()}-${(sequence += 1)}@example.com`;

export interface Tokens {
  access_token: string;
  refresh_token: string;
}

export async function register(context: SuiteContext, email: string): Promise<string> {
  const registered = await call<{ id: string }>(context.suite, 'POST', '/auth/register', {
    body: { email, password: PASSWORD },
  });
  expect(registered.status).toBe(201);
  return registered.body.id;
}

export async function login(context: SuiteContext, email: string, password = PASSWORD) {
  return call<Tokens>(context.suite, 'POST', '/auth/login', { body: { email, password } });
}

export async function signIn(context: SuiteContext, email: string, password = PASSWORD): Promise<Tokens> {
  const response = await login(context, email, password);
  expect(response.status).toBe(200);
  return response.body;
}

/** The developer API answers 200 to a live first-party token, 401 to a dead one. */
export async function accessTokenStatus(context: SuiteContext, token: string): Promise<number> {
  return (await call(context.suite, 'GET', '/api/clients/', { token })).status;
}

export async function refresh(context: SuiteContext, refreshToken: string) {
  const response = await fetch(context.url('/oauth/token'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: 'authz-first-party',
    }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Every mail to `to` whose subject is `subject`, waiting for the `count`th. */
export async function mailsTo(
  context: SuiteContext,
  to: string,
  subject: string,
  count = 1,
): Promise<ReceivedMail[]> {
  const matches = (mail: ReceivedMail) =>
    mail.envelopeTo.includes(to.toLowerCase()) || mail.envelopeTo.includes(to)
      ? mail.subject === subject
      : false;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = context.smtp.received.filter(matches);
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`no mail ${count} "${subject}" to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function tokenOfLink(link: string): string {
  return new URL(link).searchParams.get('token') ?? '';
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
