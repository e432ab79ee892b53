import { DPOP_NONCE_WINDOW_SECONDS } from '@authz/oauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { newDeveloper } from '../support/clients.js';
import { authorizationParameters, newAppClient, useCodeFlow } from '../support/code-flow.js';
import { basicAuth, machineClient, newClient, type FormField } from '../support/tokens.js';
import { dpopProof, newDpopKey, type DpopKey, type ProofOptions } from '../support/dpop-proof.js';

/**
 * RFC 9449 section 4.3, 5, 7.1 and 8 (interface.md 4.12): every refusal of a DPoP proof, at the
 * token endpoint (400) and at protected routes (401 with a DPoP challenge), with its exact body
 * and headers. Proofs are signed by hand so each rule is broken alone.
 */
const flow = useCodeFlow();
const ALGS = 'algs="EdDSA Ed25519 ES256 RS256 PS256"';
const NONCE = /^[A-Za-z0-9_-]{43}$/;
/** The server's nonce changes when the clock enters a new window (docs/par-and-dpop.md #9). */
const nonceWindow = () => Math.floor(Date.now() / 1000 / DPOP_NONCE_WINDOW_SECONDS);

/** `later` repeats `earlier`, handed out in `windowOfEarlier`; a fresh nonce once the window turned. */
function expectSameNonce(later: string | null, earlier: string | null, windowOfEarlier: number) {
  if (nonceWindow() === windowOfEarlier) expect(later).toBe(earlier);
  else expect(later).toMatch(NONCE);
}

let key: DpopKey;
let clientAuth: Record<string, string>;
const tokenUrl = () => `${flow.suite.baseUrl}/oauth/token`;
const userInfoUrl = () => `${flow.suite.baseUrl}/oauth/userinfo`;

beforeAll(async () => {
  key = await newDpopKey('ES256');
  const created = await newClient(flow.suite, flow.developer, { ...machineClient, scopes: ['openid'] });
  clientAuth = basicAuth(created.clientId, created.clientSecret!);
});

async function postToken(
  proofs: string[],
  fields: FormField[] = [['grant_type', 'client_credentials']],
  auth = clientAuth,
) {
  const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded', ...auth });
  for (const proof of proofs) headers.append('dpop', proof);
  const response = await fetch(tokenUrl(), { method: 'POST', headers, body: new URLSearchParams(fields) });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** RFC 9449 section 8: the nonce the server hands out in answer to a proof without one. */
async function serverNonce(): Promise<string> {
  const answer = await postToken([await dpopProof(key, { method: 'POST', url: tokenUrl() })]);
  expect(answer.status).toBe(400);
  return answer.headers.get('dpop-nonce')!;
}

const tokenProof = async (options: Partial<ProofOptions> = {}, signer = key) =>
  dpopProof(signer, { method: 'POST', url: tokenUrl(), nonce: await serverNonce(), ...options });

const refused = (error: string, description: string, statusCode = 400) => ({
  error,
  error_description: description,
  code: error.toUpperCase(),
  statusCode,
});

describe('DPoP proofs at the token endpoint (RFC 9449 sections 4.3, 5, 8)', () => {
  it('challenges a proof without the server nonce with use_dpop_nonce and a DPoP-Nonce header', async () => {
    const window = nonceWindow();
    const answer = await postToken([await dpopProof(key, { method: 'POST', url: tokenUrl() })]);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      refused('use_dpop_nonce', 'The DPoP proof must carry the nonce of the DPoP-Nonce header'),
    );
    expect(answer.headers.get('dpop-nonce')).toMatch(NONCE);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('www-authenticate')).toBeNull();

    const stale = await postToken([
      await dpopProof(key, { method: 'POST', url: tokenUrl(), nonce: 'not-ours' }),
    ]);
    expect(stale.status).toBe(400);
    expect(stale.body).toEqual(
      refused(
        'use_dpop_nonce',
        'The DPoP proof nonce is not current; use the nonce of the DPoP-Nonce header',
      ),
    );
    expectSameNonce(stale.headers.get('dpop-nonce'), answer.headers.get('dpop-nonce'), window);
  });

  it('answers the retry with the nonce, a DPoP token and the nonce again', async () => {
    const answer = await postToken([await tokenProof()]);
    expect(answer.status).toBe(200);
    expect(answer.body.token_type).toBe('DPoP');
    expect(answer.headers.get('dpop-nonce')).toMatch(NONCE);
  });

  it('compares htu without its query (section 4.3 item 9)', async () => {
    const answer = await postToken([await tokenProof({ url: `${tokenUrl()}?ignored=1` })]);
    expect(answer.status).toBe(200);
  });

  it('refuses a replayed proof', async () => {
    const proof = await tokenProof();
    expect((await postToken([proof])).status).toBe(200);
    const replayed = await postToken([proof]);
    expect(replayed.status).toBe(400);
    expect(replayed.body).toEqual(refused('invalid_dpop_proof', 'The DPoP proof was already used'));
  });

  const rows: [string, () => Promise<string[]>, string][] = [
    [
      'another htu',
      async () => [await tokenProof({ url: userInfoUrl() })],
      'The DPoP proof htu does not match the request URI',
    ],
    [
      'another htm',
      async () => [await tokenProof({ method: 'GET' })],
      'The DPoP proof htm does not match the request method',
    ],
    [
      'an iat two minutes old',
      async () => [await tokenProof({ iat: Math.floor(Date.now() / 1000) - 120 })],
      'The DPoP proof iat is not within 60 seconds of the current time',
    ],
    [
      'an iat two minutes ahead',
      async () => [await tokenProof({ iat: Math.floor(Date.now() / 1000) + 120 })],
      'The DPoP proof iat is not within 60 seconds of the current time',
    ],
    [
      'no jti',
      async () => [await tokenProof({ claims: { jti: undefined } })],
      'The DPoP proof must carry a jti',
    ],
    [
      'typ JWT',
      async () => [await tokenProof({ header: { typ: 'JWT' } })],
      'The DPoP proof header must have typ dpop+jwt, alg EdDSA, Ed25519, ES256, RS256 or PS256, and a public jwk',
    ],
    [
      'a private key in jwk',
      async () => [await tokenProof({ header: { jwk: { ...key.publicJwk, d: 'AAAA' } } })],
      'The DPoP proof header must have typ dpop+jwt, alg EdDSA, Ed25519, ES256, RS256 or PS256, and a public jwk',
    ],
    [
      'a jwk that did not sign it',
      async () => [await tokenProof({ header: { jwk: (await newDpopKey('ES256')).publicJwk } })],
      'The DPoP proof signature does not verify with its jwk',
    ],
    [
      'two DPoP headers',
      async () => [await tokenProof(), await tokenProof()],
      'The DPoP proof must be one compact JWT',
    ],
    ['no JWT at all', async () => ['not-a-jwt'], 'The DPoP proof must be one compact JWT'],
  ];

  it.each(rows)('refuses a proof with %s as invalid_dpop_proof', async (_name, proofs, description) => {
    const answer = await postToken(await proofs());
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(refused('invalid_dpop_proof', description));
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a token request without a proof from a client registered dpopBoundAccessTokens', async () => {
    const bound = await newClient(flow.suite, flow.developer, {
      ...machineClient,
      dpopBoundAccessTokens: true,
    });
    expect(bound.dpopBoundAccessTokens).toBe(true);
    const auth = basicAuth(bound.clientId, bound.clientSecret!);
    const answer = await postToken([], [['grant_type', 'client_credentials']], auth);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(refused('invalid_dpop_proof', 'This client must send a DPoP proof'));
    const withProof = await postToken([await tokenProof()], [['grant_type', 'client_credentials']], auth);
    expect(withProof.status).toBe(200);
    expect(withProof.body.token_type).toBe('DPoP');
  });
});

describe('DPoP proofs at /oauth/par (RFC 9449 section 10.1)', () => {
  it('demands the nonce, binds the pushed request to the key and refuses another dpop_jkt', async () => {
    const client = await newAppClient(flow);
    const parUrl = `${flow.suite.baseUrl}/oauth/par`;
    const push = async (proof: string, extra: FormField[] = []) => {
      const response = await fetch(parUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...basicAuth(client.clientId, client.clientSecret!),
          dpop: proof,
        },
        body: new URLSearchParams([...authorizationParameters({ client }), ...extra]),
      });
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as Record<string, unknown>,
      };
    };
    const window = nonceWindow();
    const challenged = await push(await dpopProof(key, { method: 'POST', url: parUrl }));
    expect(challenged.status).toBe(400);
    expect(challenged.body).toEqual(
      refused('use_dpop_nonce', 'The DPoP proof must carry the nonce of the DPoP-Nonce header'),
    );
    const nonce = challenged.headers.get('dpop-nonce')!;
    expect(nonce).toMatch(NONCE);

    const other = await newDpopKey('ES256');
    const mismatched = await push(await dpopProof(key, { method: 'POST', url: parUrl, nonce }), [
      ['dpop_jkt', other.jkt],
    ]);
    expect(mismatched.status).toBe(400);
    expect(mismatched.body).toEqual(
      refused('invalid_request', 'dpop_jkt does not match the key of the DPoP proof'),
    );

    const pushed = await push(await dpopProof(key, { method: 'POST', url: parUrl, nonce }), [
      ['dpop_jkt', key.jkt],
    ]);
    expect(pushed.status).toBe(201);
    expectSameNonce(pushed.headers.get('dpop-nonce'), nonce, window);
  });
});

describe('DPoP-bound tokens at protected routes (RFC 9449 section 7)', () => {
  let accessToken: string;
  beforeAll(async () => {
    const answer = await postToken(
      [await tokenProof()],
      [
        ['grant_type', 'client_credentials'],
        ['scope', 'openid'],
      ],
    );
    expect(answer.status).toBe(200);
    accessToken = answer.body.access_token as string;
  });

  async function getUserInfo(proofs: string[], token = accessToken, scheme = 'DPoP') {
    const headers = new Headers({ authorization: `${scheme} ${token}` });
    for (const proof of proofs) headers.append('dpop', proof);
    const response = await fetch(userInfoUrl(), { headers });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Record<string, unknown>,
    };
  }

  const resourceProof = (options: Partial<ProofOptions> = {}, signer = key) =>
    dpopProof(signer, { method: 'GET', url: userInfoUrl(), accessToken, ...options });

  function expectDpopRefusal(
    answer: Awaited<ReturnType<typeof getUserInfo>>,
    error: string,
    description: string,
  ) {
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(refused(error, description, 401));
    expect(answer.headers.get('www-authenticate')).toBe(
      `DPoP realm="authz", error="${error}", error_description="${description}", ${ALGS}`,
    );
  }

  it('accepts the token with a proof of its key carrying ath (no nonce needed at a resource)', async () => {
    // A client's token has no user behind it: UserInfo gets past every DPoP check, then finds no user.
    const answer = await getUserInfo([await resourceProof()]);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'invalid_token', code: 'INVALID_TOKEN', statusCode: 401 });
    expect(answer.headers.get('www-authenticate')).toBe(`DPoP realm="authz", error="invalid_token", ${ALGS}`);
  });

  const rows: [string, () => Promise<string[]>, string][] = [
    [
      'a proof of another token (ath)',
      async () => [await resourceProof({ accessToken: 'another' })],
      'The DPoP proof ath does not match the access token',
    ],
    [
      'a proof without ath',
      async () => [await resourceProof({ claims: { ath: undefined } })],
      'The DPoP proof ath does not match the access token',
    ],
    [
      'a proof of another URI (htu)',
      async () => [await resourceProof({ url: tokenUrl() })],
      'The DPoP proof htu does not match the request URI',
    ],
    [
      'a proof of another method (htm)',
      async () => [await resourceProof({ method: 'POST' })],
      'The DPoP proof htm does not match the request method',
    ],
    [
      'a stale proof (iat)',
      async () => [await resourceProof({ iat: Math.floor(Date.now() / 1000) - 90 })],
      'The DPoP proof iat is not within 60 seconds of the current time',
    ],
    [
      'a proof of another key',
      async () => [await resourceProof({}, await newDpopKey('RS256'))],
      'The DPoP proof key is not the key the access token is bound to',
    ],
    ['no DPoP header', async () => [], 'A DPoP proof is required'],
  ];

  it.each(rows)(
    'refuses %s with invalid_dpop_proof and a DPoP challenge',
    async (_name, proofs, description) => {
      expectDpopRefusal(await getUserInfo(await proofs()), 'invalid_dpop_proof', description);
    },
  );

  it('refuses a replayed proof', async () => {
    const proof = await resourceProof();
    expect((await getUserInfo([proof])).body.error).toBe('invalid_token');
    expectDpopRefusal(await getUserInfo([proof]), 'invalid_dpop_proof', 'The DPoP proof was already used');
  });

  it('refuses a nonce that is not current with use_dpop_nonce and a fresh DPoP-Nonce', async () => {
    const answer = await getUserInfo([await resourceProof({ nonce: 'not-ours' })]);
    expectDpopRefusal(
      answer,
      'use_dpop_nonce',
      'The DPoP proof nonce is not current; use the nonce of the DPoP-Nonce header',
    );
    expect(answer.headers.get('dpop-nonce')).toMatch(NONCE);
  });

  it('refuses the bound token as Bearer, and an unbound token with the DPoP scheme', async () => {
    expectDpopRefusal(
      await getUserInfo([], accessToken, 'Bearer'),
      'invalid_token',
      'The access token is DPoP-bound: send it with the DPoP scheme and a proof',
    );
    const bearer = await postToken([], [['grant_type', 'client_credentials']]);
    expect(bearer.body.token_type).toBe('Bearer');
    const unbound = bearer.body.access_token as string;
    expectDpopRefusal(
      await getUserInfo([await resourceProof({ accessToken: unbound })], unbound),
      'invalid_token',
      'The access token is not DPoP-bound: send it with the Bearer scheme',
    );
  });
});

describe('the DPoP scheme on the account and developer API', () => {
  it('accepts a DPoP-bound first-party token at /auth/me, /api/clients and /auth/logout, and refuses it as Bearer', async () => {
    const developer = await newDeveloper(flow.suite);
    const refreshed = await postToken(
      [await tokenProof()],
      [
        ['grant_type', 'refresh_token'],
        ['client_id', 'authz-first-party'],
        ['refresh_token', developer.refreshToken],
      ],
      {},
    );
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.token_type).toBe('DPoP');
    const token = refreshed.body.access_token as string;
    for (const path of ['/auth/me', '/api/clients']) {
      const url = `${flow.suite.baseUrl}${path}`;
      const proof = await dpopProof(key, { method: 'GET', url, accessToken: token });
      const accepted = await fetch(url, { headers: { authorization: `DPoP ${token}`, dpop: proof } });
      expect(accepted.status).toBe(200);
      const asBearer = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      expect(asBearer.status).toBe(401);
      const description = 'The access token is DPoP-bound: send it with the DPoP scheme and a proof';
      expect(await asBearer.json()).toEqual({ error: description, statusCode: 401, code: 'INVALID_TOKEN' });
      expect(asBearer.headers.get('www-authenticate')).toBe(
        `DPoP realm="authz", error="invalid_token", error_description="${description}", ${ALGS}`,
      );
    }
    const logoutUrl = `${flow.suite.baseUrl}/auth/logout`;
    const loggedOut = await fetch(logoutUrl, {
      method: 'POST',
      headers: {
        authorization: `DPoP ${token}`,
        dpop: await dpopProof(key, { method: 'POST', url: logoutUrl, accessToken: token }),
      },
    });
    expect(loggedOut.status).toBe(200);
    expect(await loggedOut.json()).toEqual({ success: true, message: 'Logged out' });
    const meUrl = `${flow.suite.baseUrl}/auth/me`;
    const afterLogout = await fetch(meUrl, {
      headers: {
        authorization: `DPoP ${token}`,
        dpop: await dpopProof(key, { method: 'GET', url: meUrl, accessToken: token }),
      },
    });
    expect(afterLogout.status).toBe(401);
  });
});
