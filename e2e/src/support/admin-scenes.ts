import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { ACCOUNT_PASSWORD, signIn, signUp } from './accounts.js';
import { call, type ApiResponse } from './clients.js';
import type { Suite } from './suite.js';

// Shared scenes of the operator API tests (interface.md 4.15).

/** Every account of these scenes is made by accounts.ts, with its password. */
export const ADMIN_PASSWORD = ACCOUNT_PASSWORD;
export const FORBIDDEN = { error: 'Forbidden', statusCode: 403, code: 'FORBIDDEN' };
export const NOT_FOUND = { error: 'Not found', statusCode: 404, code: 'NOT_FOUND' };

const grantAdminCommand = fileURLToPath(
  new URL('../../../apps/identity/dist/grant-admin.js', import.meta.url),
);

export interface CommandRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs `grant-admin.js` as the operator does, as a child process on this file's database. */
export function runGrantAdmin(databaseUrl: string | undefined, args: string[]): Promise<CommandRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  if (databaseUrl !== undefined) env.DATABASE_URL = databaseUrl;
  return new Promise((resolve) => {
    execFile(process.execPath, [grantAdminCommand, ...args], { env }, (error, stdout, stderr) => {
      const exitCode = error ? Number((error as { code?: number }).code ?? 1) : 0;
      resolve({ exitCode, stdout, stderr });
    });
  });
}

export interface Account {
  id: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
}

/** A fresh account, signed in through POST /auth/login (accounts.ts). */
export async function newAccount(suite: Suite, label = 'user'): Promise<Account> {
  const { userId, email, password } = await signUp(suite, label);
  return { id: userId, email, password, ...(await signInTokens(suite, email, password)) };
}

export async function signInTokens(suite: Suite, email: string, password = ADMIN_PASSWORD) {
  const { accessToken, refreshToken } = await signIn(suite, { email, password });
  return { accessToken, refreshToken };
}

/** A fresh account granted the admin role by the operator command. */
export async function newAdmin(suite: Suite, databaseUrl: string): Promise<Account> {
  const account = await newAccount(suite, 'admin');
  const granted = await runGrantAdmin(databaseUrl, [account.email]);
  expect(granted).toEqual({ exitCode: 0, stdout: `admin role granted to ${account.email}\n`, stderr: '' });
  return account;
}

export function adminCall<T = Record<string, unknown>>(
  suite: Suite,
  admin: Pick<Account, 'accessToken'>,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiResponse<T>> {
  return call<T>(suite, method, path, { token: admin.accessToken, ...(body === undefined ? {} : { body }) });
}

/** The first-party refresh_token grant. */
export async function refreshFirstParty(suite: Suite, refreshToken: string) {
  const response = await fetch(`${suite.baseUrl}/oauth/token`, {
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

export interface AdminUserView {
  id: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
  disabled: boolean;
  disabledAt: number | null;
  admin: boolean;
  createdAt: number;
  updatedAt: number | null;
}

export interface AuditEventView {
  id: string;
  type: string;
  actorUserId: string | null;
  ip: string | null;
  userAgent: string | null;
  details: Record<string, unknown>;
  occurredAt: number;
}
