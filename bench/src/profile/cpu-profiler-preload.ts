import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { basename, dirname, join } from 'node:path';
import { PROFILED_SERVICES, REFERENCE_SERVER } from './profiled-servers.js';

/**
 * Loaded with `--import` through NODE_OPTIONS into every process of a profiled run (Node 20 does
 * not accept `--cpu-prof` there). In the processes of profiled-servers.ts it starts V8's
 * sampling profiler, as `--cpu-prof` does (1 ms interval), and writes `<name>.<pid>.cpuprofile`
 * into BENCH_CPU_PROF_DIR when the process exits. Every other process is left alone.
 */
const dir = process.env.BENCH_CPU_PROF_DIR;
const name = profiledName(process.argv[1] ?? '');

if (dir && name) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  // The in-thread session answers synchronously, so this works in an `exit` listener.
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error)
        writeFileSync(join(dir, `${name}.${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}

/** `apps/<service>/dist/main.js` is the service; the bench's reference server is oidc-provider. */
function profiledName(entry: string): string | undefined {
  if (basename(entry) === 'reference-server.js') return REFERENCE_SERVER;
  if (basename(entry) !== 'main.js' || basename(dirname(entry)) !== 'dist') return undefined;
  const app = dirname(dirname(entry));
  if (basename(dirname(app)) !== 'apps') return undefined;
  return PROFILED_SERVICES.includes(basename(app)) ? basename(app) : undefined;
}
