import type { KeyObject } from 'node:crypto';
import { generateKeyPairSync } from 'node:crypto';
import { CompactSign, compactVerify, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { signCompactJws, signRs256CompactJws, type EdDsaJwsHeader } from './compact-jws.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const header: EdDsaJwsHeader = { alg: 'EdDSA', typ: 'at+jwt', kid: 'kid-1' };

/** What jose writes for the same header and payload (JSON text, UTF-8), with the same key. */
async function signedByJose(joseHeader: EdDsaJwsHeader, payload: object): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(payload));
  return new CompactSign(bytes).setProtectedHeader({ ...joseHeader }).sign(privateKey);
}

describe('signCompactJws', () => {
  it('writes exactly what jose writes (Ed25519 is deterministic, RFC 8032 section 5.1.6)', async () => {
    const payloads = [
      {
        client_id: 'c1',
        scope: 'profile email',
        iss: 'https://as.example',
        sub: 'c1',
        aud: 'c1',
        iat: 1,
        exp: 901,
        jti: 'j',
      },
      { aud: ['https://api.example', 'https://other.example'], act: { sub: 'agent', act: { sub: 'inner' } } },
      { name: 'Zoë «Ünïcode» 名前 \u2028 "quoted" \\ 🚀', email: 'zoe@example.com', email_verified: true },
      {},
    ];
    for (const payload of payloads) {
      expect(await signCompactJws(header, payload, privateKey)).toBe(await signedByJose(header, payload));
    }
    const idJagHeader: EdDsaJwsHeader = { alg: 'EdDSA', typ: 'oauth-id-jag+jwt', kid: 'kid-2' };
    expect(await signCompactJws(idJagHeader, { sub: 'u' }, privateKey)).toBe(
      await signedByJose(idJagHeader, { sub: 'u' }),
    );
  });

  it('verifies with jose against the public key, header and claims intact', async () => {
    const claims = {
      iss: 'https://as.example',
      sub: 'c1',
      aud: ['a', 'b'],
      iat: 1_700_000_000,
      exp: 4_000_000_000,
      jti: 'j-1',
    };
    const token = await signCompactJws(header, claims, privateKey);
    const { payload, protectedHeader } = await jwtVerify(token, publicKey, {
      issuer: 'https://as.example',
      audience: 'b',
      typ: 'at+jwt',
      algorithms: ['EdDSA'],
    });
    expect(protectedHeader).toEqual(header);
    expect(payload).toEqual(claims);
  });

  it('produces a signature that fails verification once the payload is altered', async () => {
    const [encodedHeader, , signature] = (await signCompactJws(header, { sub: 'alice' }, privateKey)).split(
      '.',
    );
    const forged = `${encodedHeader}.${Buffer.from('{"sub":"mallory"}').toString('base64url')}.${signature}`;
    await expect(compactVerify(forged, publicKey)).rejects.toThrow('signature verification failed');
  });

  it('refuses any key but an Ed25519 private key', async () => {
    const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const ed448 = generateKeyPairSync('ed448').privateKey;
    for (const key of [p256, ed448, publicKey] as KeyObject[]) {
      await expect(signCompactJws(header, { sub: 'x' }, key)).rejects.toThrow(
        new TypeError('EdDSA signing needs an Ed25519 private key'),
      );
    }
  });
});

describe('signRs256CompactJws', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });

  it('writes exactly what jose writes (RSASSA-PKCS1-v1_5 is deterministic, RFC 8017 section 8.2)', async () => {
    const rsaHeader = { alg: 'RS256' as const, typ: 'JWT', kid: 'rsa-1' };
    const payload = { sub: 'u', aud: 'c1', name: 'Zoë 名前', iat: 1, exp: 901 };
    const bytes = new TextEncoder().encode(JSON.stringify(payload));
    const byJose = await new CompactSign(bytes).setProtectedHeader(rsaHeader).sign(rsa.privateKey);
    const token = signRs256CompactJws(rsaHeader, payload, rsa.privateKey);
    expect(token).toBe(byJose);
    await expect(compactVerify(token, rsa.publicKey, { algorithms: ['RS256'] })).resolves.toBeTruthy();
  });

  it('refuses a key that is not an RSA private key', () => {
    expect(() => signRs256CompactJws({ alg: 'RS256', typ: 'JWT', kid: 'k' }, {}, privateKey)).toThrow(
      TypeError,
    );
    expect(() => signRs256CompactJws({ alg: 'RS256', typ: 'JWT', kid: 'k' }, {}, rsa.publicKey)).toThrow(
      TypeError,
    );
  });
});
