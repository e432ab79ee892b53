import { SESSION_COOKIE } from '@authz/shared/protocol';
import fc from 'fast-check';
import { BINDER_COOKIE } from '@authz/gateway';
import { base64url43, hex64, path, runs } from './hostile-arbitraries.js';
import type { Pairs } from './hostile-bodies.js';
import type { RouteSpec } from './hostile-requests.js';
import type { HostileFixtures } from './hostile-suite.js';
import { field, segment } from './hostile-strings.js';

/**
 * Real wallet flows the generated requests aim at: started, one of them answerable. `handle`
 * is the flow id of the pages and link routes, `transport` the request_uri's (docs/wallet.md #17).
 */
export interface WalletWorld {
  /** A link flow of the fixtures' user, left pending. */
  pending: { handle: string; transport: string; binder: string };
  /** A link flow whose wallet response is ready: the first request that posts it lands it. */
  answerable: { handle: string; transport: string; binder: string; state: string; vpToken: string };
}

/** Session cookie, binder cookie and CSRF header, each real, spoilt or absent. */
function walletBrowser(world: HostileFixtures, wallet: WalletWorld): fc.Arbitrary<Record<string, string>> {
  const session = fc.constantFrom(undefined, world.sessionToken, hex64(), '');
  const binder = fc.constantFrom(undefined, wallet.pending.binder, wallet.answerable.binder, hex64(), 'x');
  const csrf = fc.constantFrom(undefined, world.csrfToken, hex64(), '');
  return fc.tuple(session, binder, csrf).map(([sessionToken, binderValue, token]) => {
    const cookies = [
      ...(sessionToken === undefined ? [] : [`${SESSION_COOKIE}=${sessionToken}`]),
      ...(binderValue === undefined ? [] : [`${BINDER_COOKIE}=${binderValue}`]),
    ];
    return {
      ...(cookies.length === 0 ? {} : { cookie: cookies.join('; ') }),
      ...(token === undefined ? {} : { 'x-csrf-token': token }),
    };
  });
}

/** interface.md 1 item 7, 4.2, 4.5 and 4.9 with WALLET_FEDERATION_ENABLED on and a verifier profile. */
export function walletRoutes(world: HostileFixtures, wallet: WalletWorld): RouteSpec[] {
  const handle = segment(wallet.pending.handle, wallet.answerable.handle, base64url43());
  const transport = segment(
    wallet.pending.transport,
    wallet.answerable.transport,
    wallet.pending.handle,
    base64url43(),
  );
  const browser = walletBrowser(world, wallet);
  const { answerable } = wallet;
  return [
    {
      name: 'GET /oid4vp/request/{handle}',
      methods: ['GET'],
      path: transport.map((value) => `/oid4vp/request/${value}`),
      numRuns: runs(2000),
    },
    {
      name: 'POST /oid4vp/response',
      methods: ['POST'],
      path: path('/oid4vp/response'),
      body: {
        type: 'form',
        fields: {
          state: field(answerable.state, wallet.pending.handle),
          vp_token: field(answerable.vpToken, '{}', '{"wallet_credential":[]}'),
          error: field('access_denied', 'invalid_request'),
          error_description: field('The user declined'),
        },
        valid: fc.constant<Pairs>([
          ['state', answerable.state],
          ['vp_token', answerable.vpToken],
        ]),
      },
      numRuns: runs(2000),
    },
    {
      name: 'POST /auth/link/wallet and GET /auth/link/wallet/{handle}',
      methods: ['POST', 'GET'],
      path: fc.oneof(
        path('/auth/link/wallet'),
        handle.map((value) => `/auth/link/wallet/${value}`),
      ),
      headers: browser,
      numRuns: runs(2000),
    },
    {
      name: 'POST /auth/link/wallet/{handle}/confirm and /cancel',
      methods: ['POST'],
      path: fc
        .tuple(handle, fc.constantFrom('confirm', 'cancel', 'other'))
        .map(([value, decision]) => `/auth/link/wallet/${value}/${decision}`),
      headers: browser,
      numRuns: runs(1500),
    },
    {
      name: 'GET /ui/wallet-return',
      methods: ['GET', 'POST'],
      path: path('/ui/wallet-return'),
      query: { response_code: field(base64url43(), answerable.state) },
      headers: browser,
      numRuns: runs(1000),
    },
    {
      name: 'GET and POST /ui/wallet-login',
      methods: ['GET', 'POST'],
      path: path('/ui/wallet-login'),
      query: { handle: field(base64url43()) },
      body: {
        type: 'form',
        fields: { csrf_token: field(hex64()), handle: field(base64url43()) },
        valid: fc.constant<Pairs>([['csrf_token', hex64()]]),
      },
      headers: browser,
      numRuns: runs(2000),
    },
    {
      name: 'GET /ui/wallet-login/{handle} and its status, POST the confirmation',
      methods: ['GET', 'POST'],
      path: fc
        .tuple(handle, fc.constantFrom('', '/status', '/status/x'))
        .map(([value, rest]) => `/ui/wallet-login/${value}${rest}`),
      body: {
        type: 'form',
        fields: {
          csrf_token: field(hex64()),
          decision: field('confirm', 'cancel'),
          handle: field(base64url43()),
        },
        valid: fc.constant<Pairs>([
          ['csrf_token', hex64()],
          ['decision', 'confirm'],
        ]),
      },
      headers: browser,
      numRuns: runs(2000),
    },
    {
      name: 'GET and POST /ui/wallet-link and /ui/wallet-link/{handle}',
      methods: ['GET', 'POST'],
      path: fc.oneof(
        path('/ui/wallet-link'),
        handle.map((value) => `/ui/wallet-link/${value}`),
      ),
      body: {
        type: 'form',
        fields: { csrf_token: field(world.csrfToken), decision: field('confirm', 'cancel') },
        valid: fc.constant<Pairs>([
          ['csrf_token', world.csrfToken],
          ['decision', 'confirm'],
        ]),
      },
      headers: browser,
      numRuns: runs(2000),
    },
  ];
}
