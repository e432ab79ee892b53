import { execFileSync } from 'node:child_process';
import { accessSync, constants, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function pathDirs(env: NodeJS.ProcessEnv): string[] {
  return (env.PATH ?? '').split(delimiter).filter(Boolean);
}

export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return pathDirs(env)
    .map((dir) => join(dir, name))
    .find(isExecutable);
}

/** Where distributions keep versioned server binaries that are not on PATH (Debian, RHEL). */
function versionedServerDirs(): string[] {
  const found: string[] = [];
  for (const [parent, pattern, suffix] of [
    ['/usr/lib/postgresql', /^\d+$/, 'bin'],
    ['/usr', /^pgsql-\d+$/, 'bin'],
  ] as const) {
    let entries: string[] = [];
    try {
      entries = readdirSync(parent).filter((entry) => pattern.test(entry));
    } catch {
      continue;
    }
    entries.sort((a, b) => Number(b.replace(/\D/g, '')) - Number(a.replace(/\D/g, '')));
    found.push(...entries.map((entry) => join(parent, entry, suffix)));
  }
  return found;
}

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
  /** Major version, e.g. 15. */
  major: number;
}

/**
 * Folders holding both initdb and postgres: PATH first, then the versioned folders. When the
 * data folder already exists, the binaries of its major version win (PostgreSQL cannot open
 * a data folder of another major version).
 */
export function findPostgresBinaries(
  wantedMajor: number | undefined,
  env: NodeJS.ProcessEnv = process.env,
): PostgresBinaries | undefined {
  const candidates: PostgresBinaries[] = [];
  for (const dir of [...new Set([...pathDirs(env), ...versionedServerDirs()])]) {
    const initdb = join(dir, 'initdb');
    const postgres = join(dir, 'postgres');
    if (!isExecutable(initdb) || !isExecutable(postgres)) continue;
    const major = postgresMajor(postgres);
    if (major !== undefined) candidates.push({ initdb, postgres, major });
  }
  return candidates.find((candidate) => candidate.major === wantedMajor) ?? candidates[0];
}

function postgresMajor(postgres: string): number | undefined {
  try {
    const output = execFileSync(postgres, ['--version'], { encoding: 'utf8' });
    const match = /\(PostgreSQL\)\s+(\d+)/.exec(output);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}
