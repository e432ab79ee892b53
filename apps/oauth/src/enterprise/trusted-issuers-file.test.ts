import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceTestEnv, useTestEnvironment } from '@authz/shared/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOAuthEnv } from '../config/env.js';
import type { EnvironmentError } from '@authz/shared/env';
import { issuerMayAssertEmail, readTrustedIssuersFile } from './trusted-issuers-file.js';

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
      {
        issuer: 'https://idp.example',
        jwks_uri: 'https://idp.example/jwks',
        email_domains: ['Corp.Example'],
      },
      {
        issuer: 'https://partner.example',
        jwks: { keys: [publicKey] },
        email_domains: ['partner.example', 'eu.partner.example'],
      },
    ]);
    expect(readTrustedIssuersFile(path, false)).toEqual([
      { issuer: 'https://idp.example', jwksUri: 'https://idp.example/jwks', emailDomains: ['corp.example'] },
      {
        issuer: 'https://partner.example',
        jwks: { keys: [publicKey] },
        emailDomains: ['partner.example', 'eu.partner.example'],
      },
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
    // Each entry has its domains, so only the defect named is wrong.
    const entries = Array.isArray(content)
      ? content.map((entry) => ({ email_domains: ['idp.example'], ...entry }))
      : content;
    expect(() => readTrustedIssuersFile(fileWith(entries), false)).toThrow(message);
  });

  it.each([
    [
      'no email_domains',
      { issuer: 'https://idp.example', jwks: { keys: [publicKey] } },
      /0\.email_domains: Required|0\.email_domains: Invalid input/,
    ],
    [
      'an empty email_domains',
      { issuer: 'https://idp.example', jwks: { keys: [publicKey] }, email_domains: [] },
      /list at least one email domain/,
    ],
    [
      'a wildcard domain',
      { issuer: 'https://idp.example', jwks: { keys: [publicKey] }, email_domains: ['*.example.com'] },
      /must be a domain name/,
    ],
    [
      'an address for a domain',
      { issuer: 'https://idp.example', jwks: { keys: [publicKey] }, email_domains: ['a@example.com'] },
      /must be a domain name/,
    ],
    [
      'a single label',
      { issuer: 'https://idp.example', jwks: { keys: [publicKey] }, email_domains: ['localhost'] },
      /must be a domain name/,
    ],
  ])('refuses %s (docs/enterprise-assertions.md #20)', (_case, entry, message) => {
    expect(() => readTrustedIssuersFile(fileWith([entry]), false)).toThrow(message);
  });

  it('names every problem of the file at start-up, not only the first', () => {
    const env = { ...serviceTestEnv(environment), ENTERPRISE_ASSERTION_ENABLED: 'true' };
    const path = fileWith([
      { issuer: 'http://idp.example', jwks: { keys: [publicKey] }, email_domains: ['idp.example'] },
      { issuer: 'https://partner.example', jwks: { keys: [publicKey] }, email_domains: ['*'] },
    ]);
    let problems: string[] = [];
    try {
      loadOAuthEnv({ ...env, ENTERPRISE_TRUSTED_ISSUERS_FILE: path });
    } catch (error) {
      problems = (error as EnvironmentError).problems;
    }
    expect(problems).toEqual([
      `ENTERPRISE_TRUSTED_ISSUERS_FILE: ${path}: 0.issuer: must be an https URL without a fragment`,
      `ENTERPRISE_TRUSTED_ISSUERS_FILE: ${path}: 1.email_domains.0: must be a domain name such as example.com (no wildcard, no @)`,
    ]);
  });

  it('binds an issuer to its domains: exact, case-insensitive, no subdomain', () => {
    const [issuer] = readTrustedIssuersFile(
      fileWith([
        { issuer: 'https://idp.example', jwks: { keys: [publicKey] }, email_domains: ['Corp.Example'] },
      ]),
      false,
    );
    expect(issuerMayAssertEmail(issuer!, 'Ann@CORP.example')).toBe(true);
    expect(issuerMayAssertEmail(issuer!, 'ann@mail.corp.example')).toBe(false);
    expect(issuerMayAssertEmail(issuer!, 'ann@corp.example.evil')).toBe(false);
    expect(issuerMayAssertEmail(issuer!, 'corp.example')).toBe(false);
  });

  it('admits loopback http only under the test-only flag', () => {
    const path = fileWith([
      {
        issuer: 'http://127.0.0.1:4000',
        jwks_uri: 'http://127.0.0.1:4000/jwks',
        email_domains: ['example.com'],
      },
    ]);
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
    const path = fileWith([
      { issuer: 'https://idp.example', jwks: { keys: [publicKey] }, email_domains: ['idp.example'] },
    ]);
    expect(loadOAuthEnv({ ...env, ENTERPRISE_TRUSTED_ISSUERS_FILE: path }).enterprise).toEqual({
      enabled: true,
      trustedIssuers: [
        { issuer: 'https://idp.example', jwks: { keys: [publicKey] }, emailDomains: ['idp.example'] },
      ],
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
