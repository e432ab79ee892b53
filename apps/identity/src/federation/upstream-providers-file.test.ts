import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadUpstreamProviders } from './upstream-providers-file.js';

// docs/federation.md #2, #3: UPSTREAM_IDPS_FILE, every problem named, bad entries left out whole.
const directory = mkdtempSync(join(tmpdir(), 'upstream-idps-test-'));
const fileWith = (content: string, name = 'idps.json') => {
  const path = join(directory, name);
  writeFileSync(path, content);
  return path;
};
const good = {
  id: 'corp',
  displayName: 'Corp SSO',
  issuer: 'https://login.example.com/tenant/v2.0',
  clientId: 'client-1',
  clientSecret: 'secret-1',
};

describe('loadUpstreamProviders', () => {
  it('is empty without a file', () => {
    expect(loadUpstreamProviders(undefined)).toEqual({ providers: [], problems: [] });
  });

  it('applies the defaults and reads a secret from a file beside it', () => {
    writeFileSync(join(directory, 'corp.secret'), 'from-a-file\n');
    const rest = { id: good.id, displayName: good.displayName, issuer: good.issuer, clientId: good.clientId };
    const path = fileWith(
      JSON.stringify([good, { ...rest, id: 'filed', clientSecretFile: 'corp.secret', trustEmail: true }]),
    );
    expect(loadUpstreamProviders(path)).toEqual({
      problems: [],
      providers: [
        { ...good, scopes: 'openid email profile', trustEmail: false, createAccounts: false },
        {
          ...rest,
          id: 'filed',
          clientSecret: 'from-a-file',
          scopes: 'openid email profile',
          trustEmail: true,
          createAccounts: false,
        },
      ],
    });
  });

  it('leaves out every bad entry whole, naming each problem, and keeps the good ones', () => {
    const path = fileWith(
      JSON.stringify([
        good,
        { ...good, id: 'Bad Id', issuer: 'https://x.example/?q=1', scopes: 'email', trustEmail: 'yes' },
        { ...good, id: 'both', clientSecretFile: 'missing.secret' },
        { id: 'bare' },
        { ...good, extra: 1 },
        'not an object',
      ]),
    );
    const { providers, problems } = loadUpstreamProviders(path);
    expect(providers.map(({ id }) => id)).toEqual(['corp']);
    expect(problems).toEqual([
      'entry 1 (Bad Id): id must be 1 to 32 lowercase letters, digits or hyphens, starting with a letter or digit',
      'entry 1 (Bad Id): issuer must have no query or fragment',
      'entry 1 (Bad Id): scopes must include openid',
      'entry 1 (Bad Id): trustEmail must be true or false',
      'entry 2 (both): exactly one of clientSecret and clientSecretFile is required',
      'entry 3 (bare): displayName is required (a non-empty string)',
      'entry 3 (bare): issuer is required (a non-empty string)',
      'entry 3 (bare): clientId is required (a non-empty string)',
      'entry 3 (bare): exactly one of clientSecret and clientSecretFile is required',
      'entry 4 (corp): extra is not a known field',
      'entry 5: must be an object',
    ]);
    // No secret ever appears in a problem.
    expect(problems.join('\n')).not.toContain('secret-1');
  });

  it('refuses a duplicate id and gives no provider at all for a file that is not a JSON list', () => {
    expect(loadUpstreamProviders(fileWith(JSON.stringify([good, good]), 'dup.json')).problems).toEqual([
      'entry 1 (corp): id is not unique',
    ]);
    expect(loadUpstreamProviders(fileWith('{', 'broken.json'))).toEqual({
      providers: [],
      problems: ['UPSTREAM_IDPS_FILE is not valid JSON'],
    });
    expect(loadUpstreamProviders(fileWith('{}', 'object.json'))).toEqual({
      providers: [],
      problems: ['UPSTREAM_IDPS_FILE must hold a JSON list'],
    });
    expect(loadUpstreamProviders(join(directory, 'absent.json'))).toEqual({
      providers: [],
      problems: ['UPSTREAM_IDPS_FILE cannot be read'],
    });
  });
});
