import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceTestEnv, useTestEnvironment } from '@authz/shared/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOAuthEnv } from '../config/env.js';
import { readTrustedIssuersFile } from './trusted-issuers-file.js';

// docs/enterprise-assertions.md #8: the file is checked once, at start-up.
const environment = useTestEnvironment();
const directory = mkdtempSync(join(tmpdir(), 'trusted-issuers-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let sequence = 0;
function fileWith(content: unknown): string {
  const path = join(directory, `issuers-${(sequence += 1)}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const publicKey = { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' };

describe('ENTERPRISE_TRUSTED_ISSUERS_FILE', () => {
  it('reads issuers with a jwks_uri or inline public keys', () => {
    const path = fileWith([
      { issuer: 'https://idp.example', jwks_uri: 'https://idp.example/jwks' },
      { issuer: 'https://partner.example', jwks: { keys: [publicKey] } },
    ]);
    expect(readTrustedIssuersFile(path, false)).toEqual([
      { issuer: 'https://idp.example', jwksUri: 'https://idp.example/jwks' },
      { issuer: 'https://partner.example', jwks: { keys: [publicKey] } },
    ]);
  });

  it.each([
    ['not JSON', '{', /is not JSON/],
    ['not a list', { issuer: 'https://idp.example' }, /expected array/],
    ['neither key source', [{ issuer: 'https://idp.example' }], /give jwks_uri or jwks, exactly one/],
    [
      'both key sources',
      [{ issuer: 'https://idp.example', jwks_uri: 'https://idp.example/jwks', jwks: { keys: [publicKey] } }],
      /exactly one/,
    ],
    [
      'a private key',
      [{ issuer: 'https://idp.example', jwks: { keys: [{ ...publicKey, d: 'secret' }] } }],
      /public key/,
    ],
    [
      'a shared key',
      [{ issuer: 'https://idp.example', jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] } }],
      /kty/,
    ],
    ['plain http', [{ issuer: 'http://idp.example', jwks_uri: 'https://idp.example/jwks' }], /https URL/],
    [
      'a duplicate issuer',
      [
        { issuer: 'https://idp.example', jwks_uri: 'https://idp.example/jwks' },
        { issuer: 'https://idp.example', jwks: { keys: [publicKey] } },
      ],
      /unique/,
    ],
    [
      'an unknown member',
      [{ issuer: 'https://idp.example', jwks_uri: 'https://idp.example/j', x: 1 }],
      /Unrecognized key/,
    ],
  ])('refuses %s', (_case, content, message) => {
    expect(() => readTrustedIssuersFile(fileWith(content), false)).toThrow(message);
  });

  it('admits loopback http only under the test-only flag', () => {
    const path = fileWith([{ issuer: 'http://127.0.0.1:4000', jwks_uri: 'http://127.0.0.1:4000/jwks' }]);
    expect(() => readTrustedIssuersFile(path, false)).toThrow(/https URL/);
    expect(readTrustedIssuersFile(path, true)).toHaveLength(1);
    const elsewhere = fileWith([{ issuer: 'http://10.0.0.1', jwks_uri: 'http://10.0.0.1/jwks' }]);
    expect(() => readTrustedIssuersFile(elsewhere, true)).toThrow(/loopback/);
  });

  it('stops the service at start-up, naming the variable', () => {
    const env = { ...serviceTestEnv(environment), ENTERPRISE_ASSERTION_ENABLED: 'true' };
    expect(() =>
      loadOAuthEnv({ ...env, ENTERPRISE_TRUSTED_ISSUERS_FILE: join(directory, 'missing.json') }),
    ).toThrow(/ENTERPRISE_TRUSTED_ISSUERS_FILE: cannot read/);
    const path = fileWith([{ issuer: 'https://idp.example', jwks: { keys: [publicKey] } }]);
    expect(loadOAuthEnv({ ...env, ENTERPRISE_TRUSTED_ISSUERS_FILE: path }).enterprise).toEqual({
      enabled: true,
      trustedIssuers: [{ issuer: 'https://idp.example', jwks: { keys: [publicKey] } }],
      allowInsecureLoopback: false,
      idJagAudiences: [],
    });
  });
});

describe('ENTERPRISE_ID_JAG_AUDIENCES (docs/enterprise-assertions.md #2)', () => {
  it('allows no target by default, lists the issuers given, refuses what is not a URL', () => {
    const env = { ...serviceTestEnv(environment), ENTERPRISE_ASSERTION_ENABLED: 'true' };
    expect(loadOAuthEnv(env).enterprise.idJagAudiences).toEqual([]);
    expect(
      loadOAuthEnv({ ...env, ENTERPRISE_ID_JAG_AUDIENCES: ' https://as.example  https://b.example/tenant ' })
        .enterprise.idJagAudiences,
    ).toEqual(['https://as.example', 'https://b.example/tenant']);
    expect(() => loadOAuthEnv({ ...env, ENTERPRISE_ID_JAG_AUDIENCES: 'as.example' })).toThrow(
      /ENTERPRISE_ID_JAG_AUDIENCES/,
    );
  });
});
