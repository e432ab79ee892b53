// Builds a workspace package and what it depends on with turbo, printing nothing unless a step
// fails (then everything turbo said, and the process exits with its status).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export function buildQuietly(filter) {
  const build = spawnSync(
    'pnpm',
    ['exec', 'turbo', 'run', 'build', `--filter=${filter}`, '--output-logs=errors-only', '--ui=stream'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
    },
  );
  if (build.status === 0) return;
  process.stdout.write(build.stdout ?? '');
  process.stderr.write(build.stderr ?? '');
  if (build.error) process.stderr.write(`${build.error.message}\n`);
  process.exit(build.status ?? 1);
}
