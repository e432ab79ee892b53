import { execFileSync, spawnSync } from 'node:child_process';
import { chown } from 'node:fs/promises';

export interface RunAs {
  user: string;
  uid: number;
  gid: number;
}

/**
 * initdb and postgres refuse to run as root, and CI runs as root: then the embedded server
 * runs as the `postgres` system user (what Debian's own packages do). Spawning with uid/gid
 * needs no wrapper like runuser, whose supervisor would turn our SIGINT (fast shutdown) into
 * SIGTERM and then SIGKILL. Undefined when we are not root: the server runs as us.
 */
export function postgresRunAs(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const user = 'postgres';
  try {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
    return { user, uid, gid };
  } catch {
    throw new Error(
      'running as root, and PostgreSQL refuses to run as root: create the `postgres` system user ' +
        '(it comes with the PostgreSQL server package), run as a normal user, or set DATABASE_URL',
    );
  }
}

export async function chownTo(path: string, runAs: RunAs | undefined): Promise<void> {
  if (runAs) await chown(path, runAs.uid, runAs.gid);
}

/** `test -w` as that user: catches a parent folder the user cannot traverse (mkdtemp is 0700). */
export function canWriteAs(runAs: RunAs, dir: string): boolean {
  return spawnSync('test', ['-w', dir], { uid: runAs.uid, gid: runAs.gid }).status === 0;
}
