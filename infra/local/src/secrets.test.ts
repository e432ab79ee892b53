import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSecrets } from './secrets.js';

const HEX64 = /^[0-9a-f]{64}$/;

describe('loadSecrets', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'authz-secrets-'));
    file = join(dir, 'secrets.json');
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('generates every secret once into a 0600 file', async () => {
    const secrets = await loadSecrets(file, {});
    expect(secrets.values.KEY_ENCRYPTION_KEY).toMatch(HEX64);
    expect(secrets.values.SECRET_HASH_KEY).toMatch(HEX64);
    expect(secrets.values.KEY_ENCRYPTION_KEY).not.toBe(secrets.values.SECRET_HASH_KEY);
    expect(Object.values(secrets.sources)).toEqual(['generated', 'generated', 'generated', 'generated']);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(secrets.values);
  });

  it('reuses the saved secrets on the next start', async () => {
    const first = await loadSecrets(file, {});
    const before = await readFile(file, 'utf8');
    const second = await loadSecrets(file, {});
    expect(second.values).toEqual(first.values);
    expect(second.sources.KEY_ENCRYPTION_KEY).toBe('file');
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('prefers the environment and never writes its values to the file', async () => {
    const key = 'a'.repeat(64);
    const secrets = await loadSecrets(file, { KEY_ENCRYPTION_KEY: key });
    expect(secrets.values.KEY_ENCRYPTION_KEY).toBe(key);
    expect(secrets.sources.KEY_ENCRYPTION_KEY).toBe('environment');
    expect(await readFile(file, 'utf8')).not.toContain(key);
  });

  it('names the variable when the environment value is malformed', async () => {
    await expect(loadSecrets(file, { SECRET_HASH_KEY: 'short' })).rejects.toThrow(
      /SECRET_HASH_KEY must be 64 hex/,
    );
  });

  it('refuses a damaged file instead of silently replacing keys the data depends on', async () => {
    await writeFile(file, '{"KEY_ENCRYPTION_KEY": "nope"}');
    await expect(loadSecrets(file, {})).rejects.toThrow(/secrets.json is not a JSON object/);
  });

  it('narrows a file that was made readable by others back to 0600', async () => {
    await loadSecrets(file, {});
    await chmod(file, 0o644);
    await loadSecrets(file, {});
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});
