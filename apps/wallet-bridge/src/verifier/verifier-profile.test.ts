import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testLogger } from '@authz/shared/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWalletBridgeEnv } from '../config/env.js';
import { createTestChain, writeFiles, type TestChain } from '../../test/verifier-chain.js';
import { loadVerifierProfile } from './verifier-profile.js';
import { loadWalletConfig } from './wallet-config.js';

// docs/contract.md WALLET_VERIFIER_*, docs/decisions.md #25, OID4VP 1.0 section 5.9.3 (x509_hash).
let dir: string;
let chain: TestChain;
let files: Record<string, string>;

const der = (certificate: { rawData: ArrayBuffer }) => Buffer.from(certificate.rawData);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'verifier-profile-'));
  chain = await createTestChain();
  const pem = (...certificates: TestChain['leaf'][]) => certificates.map((c) => c.toString('pem')).join('\n');
  files = writeFiles(dir, {
    key: chain.leafKeyPem,
    otherKey: chain.otherKeyPem,
    fullChain: pem(chain.leaf, chain.intermediate, chain.root),
    withoutRoot: pem(chain.leaf, chain.intermediate),
    wrongOrder: pem(chain.intermediate, chain.leaf),
    empty: '',
    issuers: JSON.stringify([
      {
        issuer: 'https://issuer.example',
        jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }] },
        vct: ['t'],
      },
    ]),
    privateIssuerKey: JSON.stringify([
      { issuer: 'https://issuer.example', jwks: { keys: [{ kty: 'EC', d: 'secret' }] }, vct: ['t'] },
    ]),
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadVerifierProfile', () => {
  it('sends leaf and intermediates, never the self-signed root, and names the leaf by its hash', () => {
    const profile = loadVerifierProfile(files.key!, files.fullChain!);
    expect(profile.x5c).toEqual([
      der(chain.leaf).toString('base64'),
      der(chain.intermediate).toString('base64'),
    ]);
    expect(profile.clientId).toBe(
      `x509_hash:${createHash('sha256').update(der(chain.leaf)).digest('base64url')}`,
    );
    expect(profile.alg).toBe('ES256');
    expect(loadVerifierProfile(files.key!, files.withoutRoot!).x5c).toEqual(profile.x5c);
  });

  it('refuses a key that is not the leaf’s, a chain out of order and an empty chain', () => {
    expect(() => loadVerifierProfile(files.otherKey!, files.fullChain!)).toThrow(
      'the verifier key is not the leaf certificate key',
    );
    expect(() => loadVerifierProfile(files.key!, files.wrongOrder!)).toThrow(/not the leaf|not issued/);
    expect(() => loadVerifierProfile(files.key!, files.empty!)).toThrow(/holds no certificate/);
  });
});

describe('loadWalletConfig', () => {
  const base = {
    DATABASE_URL: 'postgresql://127.0.0.1:5432/x',
    REDIS_URL: 'redis://127.0.0.1:6379',
    KEY_ENCRYPTION_KEY: 'a'.repeat(64),
    SECRET_HASH_KEY: 'b'.repeat(64),
    JWT_ISSUER: 'https://auth.example',
  };
  const load = (extra: Record<string, string>) =>
    loadWalletConfig(loadWalletBridgeEnv({ ...base, ...extra }), testLogger());
  const complete = () => ({
    WALLET_FEDERATION_ENABLED: 'true',
    WALLET_VERIFIER_KEY_FILE: files.key!,
    WALLET_VERIFIER_CERT_CHAIN_FILE: files.fullChain!,
    WALLET_TRUSTED_ISSUERS_FILE: files.issuers!,
  });

  it('is on only with the flag and a usable profile and issuer list', () => {
    expect(load(complete())).toMatchObject({ issuer: 'https://auth.example', requestTtlSeconds: 300 });
    expect(load({ ...complete(), WALLET_FEDERATION_ENABLED: 'false' })).toBeUndefined();
    expect(load({ ...complete(), WALLET_VERIFIER_KEY_FILE: files.otherKey! })).toBeUndefined();
    expect(
      load({ ...complete(), WALLET_VERIFIER_CERT_CHAIN_FILE: join(dir, 'missing.pem') }),
    ).toBeUndefined();
    expect(load({ ...complete(), WALLET_TRUSTED_ISSUERS_FILE: files.privateIssuerKey! })).toBeUndefined();
    const { WALLET_TRUSTED_ISSUERS_FILE: _omitted, ...withoutIssuers } = complete();
    expect(load(withoutIssuers)).toBeUndefined();
  });

  it('reads empty file settings (compose, ConfigMap) as unset: the feature is off, not the service', () => {
    const env = loadWalletBridgeEnv({
      ...base,
      ...complete(),
      WALLET_VERIFIER_KEY_FILE: '',
      WALLET_TRUSTED_ISSUERS_FILE: '',
    });
    expect(env.wallet.verifierKeyFile).toBeUndefined();
    expect(loadWalletConfig(env, testLogger())).toBeUndefined();
  });

  it('refuses a request lifetime over 10 minutes at start-up', () => {
    expect(() => loadWalletBridgeEnv({ ...base, WALLET_REQUEST_TTL: '601' })).toThrow(/WALLET_REQUEST_TTL/);
  });
});
