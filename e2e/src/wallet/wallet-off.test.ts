import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSuite, type Suite } from '../support/suite.js';
import { useSuite } from '../support/use-suite.js';

// interface.md 1 item 7, 4.2, 4.9, docs/decisions.md #25: without the flag, or without a usable verifier
// profile, every wallet route is the bare 404 of an unknown route, before any other check.
// Both suites share this file's database, so they share the keys its records are sealed with.
const KEYS = {
  KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  SECRET_HASH_KEY: randomBytes(32).toString('hex'),
};
const context = useSuite({ serviceEnv: KEYS });
let unusable: Suite;

const NOT_FOUND = { error: 'Not found', statusCode: 404, code: 'NOT_FOUND' };

beforeAll(async () => {
  // The flag on everywhere, but no verifier key, chain or trusted issuers: unusable.
  unusable = await startSuite({
    databaseUrl: context.environment.databaseUrl,
    redisUrl: context.environment.redisUrl,
    redisKeyPrefix: `${context.environment.redisPrefix}unusable:`,
    serviceEnv: {
      ...KEYS,
      WALLET_FEDERATION_ENABLED: 'true',
      WALLET_VERIFIER_KEY_FILE: '/nonexistent/key.pem',
    },
    gatewayEnv: { WALLET_FEDERATION_ENABLED: 'true' },
  });
});
afterAll(() => unusable?.close());

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const requests: [string, string, RequestInit][] = [
  ['GET', '/oid4vp/request/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', {}],
  [
    'POST',
    '/oid4vp/response',
    { headers: FORM, body: 'state=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA&error=access_denied' },
  ],
  ['POST', '/oid4vp/response', { headers: FORM, body: 'state=a&state=b' }],
  ['POST', '/oid4vp/response', { headers: { 'content-type': 'application/json' }, body: '[' }],
  ['POST', '/auth/link/wallet', {}],
  ['POST', '/auth/link/wallet', { headers: { cookie: `__Host-service_session=${'0'.repeat(64)}` } }],
  ['GET', '/auth/link/wallet/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', {}],
  ['POST', '/auth/link/wallet/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/confirm', {}],
  ['POST', '/auth/link/wallet/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/cancel', {}],
];

async function call(baseUrl: string, method: string, path: string, init: RequestInit) {
  const response = await fetch(`${baseUrl}${path}`, { method, ...init });
  return {
    status: response.status,
    body: await response.json(),
    setCookie: response.headers.get('set-cookie'),
  };
}

describe('wallet routes with WALLET_FEDERATION_ENABLED off', () => {
  it.each(requests)('%s %s answers the bare 404 of an unknown route', async (method, path, init) => {
    expect(await call(context.suite.baseUrl, method, path, init)).toEqual({
      status: 404,
      body: NOT_FOUND,
      setCookie: null,
    });
    expect(await (await fetch(context.url('/no-such-route'))).json()).toEqual(NOT_FOUND);
  });
});

describe('wallet routes with the flag on but no usable verifier profile', () => {
  // Only a body the gateway itself refuses before asking wallet-bridge differs (415, 400).
  const reachingWalletBridge = requests.filter(
    ([, , init]) => !String(init.body ?? '').match(/^\[|state=a&/),
  );

  it.each(reachingWalletBridge)(
    '%s %s answers the bare 404, before the session is checked',
    async (method, path, init) => {
      expect(await call(unusable.baseUrl, method, path, init)).toEqual({
        status: 404,
        body: NOT_FOUND,
        setCookie: null,
      });
    },
  );
});
