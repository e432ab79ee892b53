import { randomBytes } from 'node:crypto';
import { chmod, readFile, rename, stat, writeFile } from 'node:fs/promises';

/** Required by identity, oauth, clients and wallet-bridge (docs/contract.md): 32 bytes as 64 hex. */
export const SERVICE_SECRETS = ['KEY_ENCRYPTION_KEY', 'SECRET_HASH_KEY'] as const;
/** Passwords of the embedded PostgreSQL and Redis, so other local users cannot connect. */
export const EMBEDDED_SECRETS = ['EMBEDDED_POSTGRES_PASSWORD', 'EMBEDDED_REDIS_PASSWORD'] as const;

export type SecretName = (typeof SERVICE_SECRETS)[number] | (typeof EMBEDDED_SECRETS)[number];
export type SecretSource = 'environment' | 'file' | 'generated';

export interface Secrets {
  values: Record<SecretName, string>;
  sources: Record<SecretName, SecretSource>;
}

const HEX_32_BYTES = /^[0-9a-fA-F]{64}$/;

/**
 * Secrets of `pnpm start`: the environment wins; else `.data/secrets.json`; else generated once
 * and saved there (mode 0600). Reusing them matters: signing keys in the database are encrypted
 * with KEY_ENCRYPTION_KEY and stored secrets are hashed with SECRET_HASH_KEY.
 */
export async function loadSecrets(file: string, env: NodeJS.ProcessEnv = process.env): Promise<Secrets> {
  const stored = await readSecretsFile(file);
  const values = {} as Record<SecretName, string>;
  const sources = {} as Record<SecretName, SecretSource>;
  for (const name of [...SERVICE_SECRETS, ...EMBEDDED_SECRETS]) {
    const fromEnv = (SERVICE_SECRETS as readonly string[]).includes(name) ? env[name] : undefined;
    if (fromEnv) {
      if (!HEX_32_BYTES.test(fromEnv)) throw new Error(`${name} must be 64 hex characters (32 random bytes)`);
      [values[name], sources[name]] = [fromEnv, 'environment'];
    } else if (stored[name]) {
      [values[name], sources[name]] = [stored[name], 'file'];
    } else {
      [values[name], sources[name]] = [randomBytes(32).toString('hex'), 'generated'];
      stored[name] = values[name];
    }
  }
  if (Object.values(sources).includes('generated')) await writeSecretsFile(file, stored);
  return { values, sources };
}

async function readSecretsFile(file: string): Promise<Partial<Record<SecretName, string>>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  const parsed: unknown = safeJson(text);
  const valid =
    typeof parsed === 'object' &&
    parsed !== null &&
    Object.values(parsed).every((value) => typeof value === 'string' && HEX_32_BYTES.test(value));
  if (!valid) {
    throw new Error(
      `${file} is not a JSON object of 64-hex-character secrets; fix it, or delete it together ` +
        'with the postgres/ folder beside it (data encrypted with the old keys becomes unreadable)',
    );
  }
  // Another user could have read it if it was ever widened; keep it private from now on.
  if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  return parsed as Partial<Record<SecretName, string>>;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Write-then-rename, created 0600 from the start, so no reader ever sees a partial or open file. */
async function writeSecretsFile(file: string, secrets: Partial<Record<SecretName, string>>): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}
