import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { say, type LineSink } from './log.js';
import { findRepositoryRoot, resolveDataDir } from './paths.js';
import { planTestBackends, startTestBackends, type TestBackends } from './test-backends.js';

/**
 * `node dist/with-test-backends.js <command> [args...]`: runs the command (turbo's test tasks)
 * with a PostgreSQL and a Redis, embedded ones when the machine has none (test-backends.ts).
 * Exits with the command's status once the embedded servers have stopped.
 */
const [command, ...args] = process.argv.slice(2);
if (!command) {
  say('test', 'usage: with-test-backends <command> [args...]');
  process.exit(2);
}

const plan = await planTestBackends(process.env);
let backends: TestBackends | undefined;
if (plan.postgres || plan.redis) {
  try {
    // The tests provoke database errors on purpose; only the server's own failures are worth a line.
    const quiet: LineSink = (source, line) => {
      if (source === 'test' || /\b(FATAL|PANIC)\b/.test(line)) say(source, line);
    };
    backends = await startTestBackends(join(resolveDataDir(findRepositoryRoot()), 'test'), plan, quiet);
  } catch (error) {
    say('test', `could not start the embedded backends: ${(error as Error).message}`);
    process.exit(1);
  }
}

const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...backends?.env } });
// Ctrl-C reaches the command directly (same process group); a SIGTERM to this process alone is
// passed on, and the embedded servers stop after the command in every case.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => {
  void (backends?.stop() ?? Promise.resolve()).then(() => process.exit(code ?? (signal ? 1 : 0)));
});
