// `pnpm start`: build what the launcher needs with turbo, quietly unless a step fails, then run
// the launcher in the foreground (docs/contract.md). Plain JavaScript so it runs before any build.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const started = Date.now();
process.stdout.write('Building the suite (turbo, cached after the first run)...\n');

const build = spawnSync(
  'pnpm',
  ['exec', 'turbo', 'run', 'build', '--filter=@authz/local-suite', '--output-logs=errors-only', '--ui=stream'],
  {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
  },
);
if (build.status !== 0) {
  // A failed step: show everything turbo said, then stop with its exit status.
  process.stdout.write(build.stdout ?? '');
  process.stderr.write(build.stderr ?? '');
  if (build.error) process.stderr.write(`${build.error.message}\n`);
  process.exit(build.status ?? 1);
}
process.stdout.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s; starting.\n`);

const launcher = spawn(process.execPath, [join(root, 'infra', 'local', 'dist', 'main.js')], {
  cwd: root,
  stdio: 'inherit',
});
// Ctrl-C reaches the launcher directly (same process group); it stops the suite and exits 0.
// This process only waits for it. A SIGTERM sent to this process alone (a service manager, or
// `kill`) is passed on once.
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});
process.on('SIGTERM', () => launcher.kill('SIGTERM'));
launcher.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
