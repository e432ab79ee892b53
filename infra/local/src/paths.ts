import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root is the nearest folder holding pnpm-workspace.yaml above this module, so
 * `pnpm start` (run by turbo from infra/local) and `node infra/local/dist/main.js` agree.
 * AUTHZ_ROOT_DIR overrides it; the launcher tests use it to run stub apps.
 */
export function findRepositoryRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AUTHZ_ROOT_DIR) return resolve(env.AUTHZ_ROOT_DIR);
  const found = walkUpTo('pnpm-workspace.yaml', dirname(fileURLToPath(import.meta.url)));
  if (!found) throw new Error('pnpm-workspace.yaml not found above the launcher; set AUTHZ_ROOT_DIR');
  return found;
}

export function walkUpTo(marker: string, from: string): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, marker))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Everything the embedded defaults keep lives here (.gitignore lists .data/). */
export function resolveDataDir(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.AUTHZ_DATA_DIR ? resolve(env.AUTHZ_DATA_DIR) : join(root, '.data');
}

export function appEntry(root: string, app: string, entry: 'main' | 'migrate'): string {
  return join(root, 'apps', app, 'dist', `${entry}.js`);
}
