// `pnpm start`: build what the launcher needs, quietly unless a step fails, then run the
// launcher in the foreground (docs/contract.md). Plain JavaScript so it runs before any build.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildQuietly, ROOT } from './build-quietly.mjs';

const started = Date.now();
process.stdout.write('Building the suite (turbo, cached after the first run)...\n');
buildQuietly('@authz/local-suite');
process.stdout.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s; starting.\n`);

const launcher = spawn(process.execPath, [join(ROOT, 'infra', 'local', 'dist', 'main.js')], {
  cwd: ROOT,
  stdio: 'inherit',
});
// Ctrl-C reaches the launcher directly (same process group); it stops the suite and exits 0.
// This process only waits for it. A SIGTERM sent to this process alone (a service manager, or
// `kill`) is passed on once.
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});
process.on('SIGTERM', () => launcher.kill('SIGTERM'));
launcher.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
