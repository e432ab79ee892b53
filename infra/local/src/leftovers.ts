import { readdir, readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { waitUntil } from './ports.js';
import { isAlive, signalGroup, type PidRecord } from './processes.js';

/** Pid files of the embedded servers start with this, so they are stopped after the services. */
export const INFRA_PID_PREFIX = 'infra-';

/**
 * A launcher killed with SIGKILL cannot stop its children, and they keep ports and the
 * PostgreSQL data folder locked. The next start finds their pid files here and stops them:
 * services first, then Redis and PostgreSQL, each gracefully, then by force.
 */
export async function stopLeftovers(runDir: string, report: (line: string) => void): Promise<void> {
  const files = (await readdir(runDir).catch(() => [] as string[])).filter((file) =>
    file.endsWith('.pid.json'),
  );
  const services = files.filter((file) => !file.startsWith(INFRA_PID_PREFIX));
  const infra = files.filter((file) => file.startsWith(INFRA_PID_PREFIX));
  for (const group of [services, infra]) {
    await Promise.all(group.map((file) => stopOne(join(runDir, file), report)));
  }
}

async function stopOne(file: string, report: (line: string) => void): Promise<void> {
  const record = JSON.parse(await readFile(file, 'utf8').catch(() => 'null')) as PidRecord | null;
  if (record && isAlive(record.pid) && (await looksLike(record))) {
    const name = basename(file, '.pid.json').replace(INFRA_PID_PREFIX, '');
    report(`stopping ${name} (pid ${record.pid}) left over from an earlier run`);
    try {
      process.kill(record.pid, record.stopSignal);
      await waitUntil(`pid ${record.pid} to exit`, async () => !isAlive(record.pid), { timeoutMs: 15_000 });
    } catch {
      // Gone already, or stuck: the group kill below settles both.
    }
    signalGroup(record.pid, 'SIGKILL');
  }
  await rm(file, { force: true });
}

/** Guards against a recycled pid: the process must still run the recorded program. */
async function looksLike(record: PidRecord): Promise<boolean> {
  const cmdline = await readFile(`/proc/${record.pid}/cmdline`, 'utf8').catch(() => undefined);
  if (cmdline === undefined) return true; // no procfs (macOS): trust the pid
  const program = basename(record.command.split(' ')[0] ?? '');
  return cmdline.includes(program);
}
