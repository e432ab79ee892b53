import { loadConfig, type LauncherConfig } from './config.js';
import { say } from './log.js';
import { readyMessage } from './ready-message.js';
import { Suite } from './suite.js';

/**
 * `pnpm start`: the whole suite on one machine (docs/contract.md). Exits 0 after a clean stop on
 * SIGINT/SIGTERM/SIGHUP, non-zero when it cannot start or a child dies on its own.
 */
function readConfig(): LauncherConfig {
  try {
    return loadConfig();
  } catch (error) {
    say('local', (error as Error).message);
    process.exit(1);
  }
}

const config = readConfig();
const suite = new Suite(config);
const stopRequested = new AbortController();
let finishing: Promise<void> | undefined;

function finish(code: number): Promise<void> {
  return (finishing ??= suite.stop().then((clean) => {
    say('local', clean && code === 0 ? 'stopped' : 'stopped, with the problems above');
    process.exit(code !== 0 ? code : clean ? 0 : 1);
  }));
}

let signals = 0;
function onSignal(signal: NodeJS.Signals): void {
  signals += 1;
  if (signals === 1) {
    say('local', `${signal}: stopping the suite (send it again to kill everything at once)`);
    stopRequested.abort();
    void finish(0);
  } else {
    say('local', `${signal} again: killing every child`);
    suite.kill();
  }
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);

// `kill -USR2 <launcher pid>`: a rolling restart of the oauth replicas (docs/operations.md).
process.on('SIGUSR2', () => {
  if (config.oauthReplicas < 2) say('local', 'SIGUSR2 with one oauth replica: calls fail while it restarts');
  say('local', 'SIGUSR2: restarting the oauth replicas one at a time');
  suite
    .restartOAuthReplicas()
    .catch((error: Error) => say('local', `oauth restart stopped: ${error.message}`));
});

// A bug in the launcher must still not leave seven processes and two servers behind.
process.on('uncaughtException', (error) => {
  say('local', `launcher error: ${error.stack ?? error.message}`);
  void finish(1);
});

void suite.crashed.then((reason) => {
  say('local', `${reason}: stopping everything`);
  void finish(1);
});

say('local', `repository ${config.root}, data in ${config.dataDir}`);
try {
  await suite.start(stopRequested.signal);
  process.stdout.write(readyMessage(config));
} catch (error) {
  // A stop request or a crash is already being handled above.
  if (!stopRequested.signal.aborted && !suite.crashedWith) {
    say('local', `could not start: ${(error as Error).message}`);
    await finish(1);
  }
}
