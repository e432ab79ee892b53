import type { AppError } from '@authz/shared/errors';
import { useTestEnvironment } from '@authz/shared/testing';
import { FakeIdentity } from '@authz/shared/testing/fake-identity';
import { Client } from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { CodeFlow } from '../../../test/code-flow.js';
import { FakeClients, type FakeClient } from '../../../test/fake-clients.js';
import { oauthTestSource, startOAuth, type RunningOAuth } from '../../../test/oauth-harness.js';
import { origin } from '../../../test/token-management.js';

// The set-up the authorization_code and refresh_token grant tests beside this folder share.

/** Call once at the top of a test file: its database, the test doubles and oauth, started beforeAll. */
export function useCodeGrant() {
  const environment = useTestEnvironment();
  const identity = new FakeIdentity();
  const alice = identity.addUser('alice@example.com', 'pw');
  const clients = new FakeClients();
  const confidential = {
    method: 'client_secret_basic' as const,
    secret: 's',
    grantTypes: ['authorization_code', 'refresh_token'],
    scopes: ['openid', 'email', 'profile'],
    redirectUris: ['https://app.example/cb', 'https://app.example/second'],
  };
  let source: NodeJS.ProcessEnv | undefined;
  let oauth: RunningOAuth | undefined;
  let flow: CodeFlow | undefined;

  beforeAll(async () => {
    source = oauthTestSource(environment, await identity.start(), await clients.start());
    oauth = await startOAuth(source);
    flow = new CodeFlow(oauth, identity);
  });
  afterAll(async () => {
    await oauth?.close();
    await identity.close();
    await clients.close();
  });

  const running = once('oauth', () => oauth);
  return {
    clients,
    alice,
    web: clients.addClient({ ...confidential }),
    other: clients.addClient({ ...confidential, secret: 'other' }),
    single: clients.addClient({ ...confidential, redirectUris: ['https://single.example/cb'] }),
    noRefresh: clients.addClient({ ...confidential, grantTypes: ['authorization_code'] }),
    api: clients.addClient({ ...confidential, audience: ['https://api.example', 'https://files.example'] }),
    // oauth, its variables and a code flow against it, usable once beforeAll has run.
    oauth: running,
    source: once('source', () => source),
    flow: once('flow', () => flow),
    verify: (accessToken: string) =>
      running.tokens.verifyAccessToken({ accessToken, requireFirstPartyUser: false }),
    refresh(client: FakeClient, refreshToken: string, extra: [string, string][] = []) {
      const parameters = [['grant_type', 'refresh_token'], ['refresh_token', refreshToken], ...extra].map(
        ([name, value]) => ({ name: name!, value: value! }),
      );
      return running.tokens
        .token({ parameters, basic: { clientId: client.clientId, clientSecret: client.secret! }, origin })
        .then((response) => response.tokens!);
    },
    /** A connection to the test file's own database. */
    async withDatabase<T>(use: (db: Client) => Promise<T>): Promise<T> {
      const db = new Client({ connectionString: environment.databaseUrl });
      await db.connect();
      try {
        return await use(db);
      } finally {
        await db.end();
      }
    },
  };
}

/** The error a call was refused with; fails the test when it succeeds. */
export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  return promise.then(
    () => expect.fail('expected a refusal'),
    (error: AppError) => error,
  );
}

/** Stands at the top of a test file for what beforeAll makes later; each use reaches it. */
function once<T extends object>(name: string, get: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_target, property) {
      const value = get();
      if (!value) throw new Error(`useCodeGrant(): ${name} exists only once beforeAll has run`);
      const member: unknown = Reflect.get(value, property);
      return typeof member === 'function' ? member.bind(value) : member;
    },
  });
}
