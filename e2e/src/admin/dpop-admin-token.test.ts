import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { useCodeFlow } from '../support/code-flow.js';
import { adminCall, newAccount, newAdmin, type AdminUserView } from '../support/admin-scenes.js';
import { dpopProof, newDpopKey, type DpopKey } from '../support/dpop-proof.js';

/**
 * The operator API (interface.md 4.15) meets DPoP (interface.md 4.12): POST /auth/login issues
 * Bearer tokens, but the first-party refresh_token grant with a proof gives a DPoP-bound
 * first-party token, which the admin routes take as every token-protected route does
 * (docs/admin-api.md #2): with the DPoP scheme and a proof of its key, never as Bearer.
 */
const flow = useCodeFlow();

/** The first-party refresh_token grant with a proof of `key`, answering the nonce challenge. */
async function dpopBoundFirstPartyToken(refreshToken: string, key: DpopKey): Promise<string> {
  const tokenUrl = `${flow.suite.baseUrl}/oauth/token`;
  const post = async (nonce?: string) =>
    fetch(tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        dpop: await dpopProof(key, { method: 'POST', url: tokenUrl, nonce }),
      },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: 'authz-first-party',
      }),
    });
  const challenge = await post();
  expect(challenge.status).toBe(400);
  const refreshed = await post(challenge.headers.get('dpop-nonce')!);
  expect(refreshed.status).toBe(200);
  const body = (await refreshed.json()) as Record<string, string>;
  expect(body.token_type).toBe('DPoP');
  return body.access_token!;
}

/** docs/par-and-dpop.md #12: the DPoP challenge of a refusal at a resource. */
const challenge = (error: string, description: string) =>
  `DPoP realm="authz", error="${error}", error_description="${description}", algs="EdDSA Ed25519 ES256 RS256 PS256"`;

describe('a DPoP-bound first-party token at the operator API', () => {
  it('is accepted with the DPoP scheme and a proof of its key, refused as Bearer or with another key', async () => {
    const admin = await newAdmin(flow.suite, flow.databaseUrl);
    const target = await newAccount(flow.suite, 'target');
    const key = await newDpopKey('ES256');
    const accessToken = await dpopBoundFirstPartyToken(admin.refreshToken, key);
    expect(decodeJwt(accessToken)).toMatchObject({
      sub: admin.id,
      client_id: 'authz-first-party',
      cnf: { jkt: key.jkt },
    });

    const url = `${flow.suite.baseUrl}/admin/users/${target.id}`;
    const get = async (authorization: string, proofKey?: DpopKey) =>
      fetch(url, {
        headers: {
          authorization,
          ...(proofKey ? { dpop: await dpopProof(proofKey, { method: 'GET', url, accessToken }) } : {}),
        },
      });

    const accepted = await get(`DPoP ${accessToken}`, key);
    expect(accepted.status).toBe(200);
    expect((await accepted.json()) as AdminUserView).toMatchObject({
      id: target.id,
      email: target.email,
      disabled: false,
      admin: false,
    });

    const asBearer = await get(`Bearer ${accessToken}`);
    expect(asBearer.status).toBe(401);
    // The API error shape of the account routes (docs/errors.md), with the OAuth challenge.
    const description = 'The access token is DPoP-bound: send it with the DPoP scheme and a proof';
    expect(await asBearer.json()).toEqual({ error: description, code: 'INVALID_TOKEN', statusCode: 401 });
    expect(asBearer.headers.get('www-authenticate')).toBe(challenge('invalid_token', description));

    const otherKey = await get(`DPoP ${accessToken}`, await newDpopKey('ES256'));
    expect(otherKey.status).toBe(401);
    const mismatch = 'The DPoP proof key is not the key the access token is bound to';
    expect(await otherKey.json()).toEqual({ error: mismatch, code: 'INVALID_DPOP_PROOF', statusCode: 401 });
    expect(otherKey.headers.get('www-authenticate')).toBe(challenge('invalid_dpop_proof', mismatch));

    const withoutProof = await get(`DPoP ${accessToken}`);
    expect(withoutProof.status).toBe(401);
    const missing = 'A DPoP proof is required';
    expect(await withoutProof.json()).toEqual({
      error: missing,
      code: 'INVALID_DPOP_PROOF',
      statusCode: 401,
    });
    expect(withoutProof.headers.get('www-authenticate')).toBe(challenge('invalid_dpop_proof', missing));

    // The Bearer token of the sign-in still works as before.
    const bearer = await adminCall<AdminUserView>(flow.suite, admin, 'GET', `/admin/users/${target.id}`);
    expect(bearer.status).toBe(200);
  });
});
