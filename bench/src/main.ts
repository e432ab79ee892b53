import { runBench } from './bench.js';
import { loadBenchEnv, type BenchEnv } from './config/env.js';
import { print } from './report/report.js';
import { Teardown } from './teardown.js';

/**
 * `pnpm bench` (docs/contract.md): process wiring only. Ctrl-C stops the load and everything started;
 * a second Ctrl-C kills what is still running.
 */
function readEnv(): BenchEnv {
  try {
    return loadBenchEnv();
  } catch (error) {
    print((error as Error).message);
    process.exit(1);
  }
}

const env = readEnv();
const teardown = new Teardown();
const interrupted = new AbortController();
let signals = 0;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    signals += 1;
    if (signals === 1) {
      print(`${signal}: stopping (send it again to kill everything at once)`);
      interrupted.abort(new Error(signal));
    } else {
      teardown.kill();
      process.exit(130);
    }
  });
}

const code = await runBench(env, interrupted.signal, teardown);
const clean = await teardown.run((line) => print(line));
process.exit(code !== 0 ? code : clean ? 0 : 1);
