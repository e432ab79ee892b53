// `pnpm test` / `test:unit` / `test:e2e`: turbo's test tasks (the first arguments name them, the
// rest go to turbo, e.g. --filter=@authz/oauth), with an embedded PostgreSQL and Redis when the
// machine runs none (infra/local/src/test-backends.ts).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildQuietly, ROOT } from './build-quietly.mjs';

buildQuietly('@authz/local-suite');
const child = spawn(
  process.execPath,
  [
    join(ROOT, 'infra', 'local', 'dist', 'with-test-backends.js'),
    'pnpm',
    'exec',
    'turbo',
    'run',
    ...process.argv.slice(2),
  ],
  { cwd: ROOT, stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
);
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
