import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { errors, exportJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { dpopProofKey } from '../protocol/dpop/dpop-proof-key.js';
import { checkJwtClaims } from './jwt-claims.js';
import { verifyCompactJws, type VerifiableAlg } from './verify-compact-jws.js';

const ed = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
const now = Math.floor(Date.now() / 1000);
const claims = { iss: 'https://as.example', sub: 'u', jti: 'j', client_id: 'c', iat: now, exp: now + 600 };
const checks = {
  issuer: 'https://as.example',
  typ: 'at+jwt',
  requiredClaims: ['exp', 'iat', 'sub', 'jti', 'client_id'],
};

/** Outcome of jose's jwtVerify and of verifyCompactJws + checkJwtClaims: the payload or the error code. */
async function outcomes(token: string, key: KeyObject, algorithms: VerifiableAlg[] = ['EdDSA']) {
  const byJose = await jwtVerify(token, key, { ...checks, algorithms }).then(
    ({ payload }) => payload,
    (error: errors.JOSEError) => error.code,
  );
  const ours = await verifyCompactJws(token, algorithms, () => key)
    .then(({ header, payload }) => {
      checkJwtClaims(header, payload, checks);
      return payload;
    })
    .catch((error: errors.JOSEError) => error.code);
  return { byJose, ours };
}

/** A token as any signer might write it: the header is not checked, the signature is real. */
function signed(
  payload: unknown,
  header: Record<string, unknown> = { alg: 'EdDSA', typ: 'at+jwt', kid: 'k' },
  key = ed.privateKey,
): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
}

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('verifyCompactJws and checkJwtClaims: the outcome of jose jwtVerify (docs/performance.md #20)', () => {
  it.each([
    ['a valid access token', () => signed(claims)],
    ['an expired one', () => signed({ ...claims, exp: now - 1 })],
    ['exp exactly now', () => signed({ ...claims, exp: now })],
    ['nbf in the future', () => signed({ ...claims, nbf: now + 60 })],
    ['a string iat', () => signed({ ...claims, iat: String(now) })],
    ['another issuer', () => signed({ ...claims, iss: 'https://evil.example' })],
    ['no jti', () => signed({ ...claims, jti: undefined })],
    ['typ JWT', () => signed(claims, { alg: 'EdDSA', typ: 'JWT' })],
    ['typ application/at+jwt', () => signed(claims, { alg: 'EdDSA', typ: 'application/AT+JWT' })],
    ['no typ', () => signed(claims, { alg: 'EdDSA' })],
    ['signed by another key', () => signed(claims, undefined, other.privateKey)],
    ['a payload that is an array', () => signed([1, 2])],
    ['a crit header', () => signed(claims, { alg: 'EdDSA', typ: 'at+jwt', crit: ['exp'], exp: 1 })],
  ])('%s', async (_name, make) => {
    const { byJose, ours } = await outcomes(await make(), ed.publicKey);
    expect(ours).toEqual(byJose);
  });

  it('refuses what is not one compact JWS, as jose does', async () => {
    const token = await signed(claims);
    const [h, p, s] = token.split('.');
    for (const bad of [
      `${h}.${p}`,
      `${token}.x`,
      `${h}.${p}.${s}x`,
      `${h}.${p}x.${s}`,
      `${h}!.${p}.${s}`,
      '',
      'a.b.c',
    ]) {
      const { byJose, ours } = await outcomes(bad, ed.publicKey);
      expect(typeof ours, bad).toBe('string');
      expect(typeof byJose, bad).toBe('string');
    }
  });

  it('refuses an alg outside the list before asking for a key', async () => {
    let asked = false;
    const token = signed(claims, { alg: 'HS256', typ: 'at+jwt' });
    await expect(
      verifyCompactJws(token, ['EdDSA'], () => {
        asked = true;
        return ed.publicKey;
      }),
    ).rejects.toBeInstanceOf(errors.JOSEAlgNotAllowed);
    expect(asked).toBe(false);
  });

  it('refuses a key of the wrong type and a missing key', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const token = await signed(claims);
    await expect(verifyCompactJws(token, ['EdDSA'], () => rsa.publicKey)).rejects.toBeInstanceOf(
      errors.JOSEError,
    );
    await expect(verifyCompactJws(token, ['EdDSA'], () => undefined)).rejects.toBeInstanceOf(
      errors.JWKSNoMatchingKey,
    );
  });
});

describe('dpopProofKey with verifyCompactJws: every proof algorithm, as jose verifies it', () => {
  const pairs = {
    EdDSA: generateKeyPairSync('ed25519'),
    Ed25519: generateKeyPairSync('ed25519'),
    ES256: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
    RS256: generateKeyPairSync('rsa', { modulusLength: 2048 }),
    PS256: generateKeyPairSync('rsa', { modulusLength: 2048 }),
  };

  it.each(Object.keys(pairs) as (keyof typeof pairs)[])(
    '%s: verifies, and its jkt is jose thumbprint',
    async (alg) => {
      const { privateKey, publicKey } = pairs[alg];
      const jwk = await exportJWK(publicKey);
      const proof = await new SignJWT({ jti: 'x', htm: 'POST', htu: 'https://as.example/t', iat: now })
        .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk })
        .sign(privateKey);
      const proofKey = dpopProofKey(jwk, alg)!;
      const { payload } = await verifyCompactJws(proof, [alg], () => proofKey.key);
      expect(payload.jti).toBe('x');
      const { calculateJwkThumbprint } = await import('jose');
      expect(proofKey.jkt).toBe(await calculateJwkThumbprint(jwk, 'sha256'));
      // A proof of another key does not verify under this one.
      const stranger = await new SignJWT({ jti: 'y' })
        .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk })
        .sign(
          alg === 'ES256'
            ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
            : alg.startsWith('E')
              ? generateKeyPairSync('ed25519').privateKey
              : generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
        );
      await expect(verifyCompactJws(stranger, [alg], () => proofKey.key)).rejects.toBeInstanceOf(
        errors.JWSSignatureVerificationFailed,
      );
    },
  );

  it('refuses a jwk that does not fit the alg, a short RSA key and broken members', async () => {
    const ec = await exportJWK(pairs.ES256.publicKey);
    const okp = await exportJWK(pairs.EdDSA.publicKey);
    const shortRsa = await exportJWK(generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey);
    const p384 = await exportJWK(generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey);
    const cases: [JWK, string][] = [
      [ec, 'EdDSA'],
      [okp, 'ES256'],
      [shortRsa, 'RS256'],
      [p384, 'ES256'],
      [{ ...okp, x: 42 } as unknown as JWK, 'EdDSA'],
      [{ ...okp, x: 'not-a-point' }, 'EdDSA'],
      [{ kty: 'oct', k: 'c2VjcmV0' }, 'HS256'],
    ];
    for (const [jwk, alg] of cases) expect(dpopProofKey(jwk, alg), `${jwk.kty} ${alg}`).toBeUndefined();
  });
});
