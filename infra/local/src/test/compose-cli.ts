import { spawnSync } from 'node:child_process';

/**
 * `docker-compose config` validates and interpolates a compose file without a Docker engine
 * (Debian's docker-compose 1.29, or the `docker compose` v2 plugin).
 */
export function composeCommand(): string[] | undefined {
  for (const command of [['docker-compose'], ['docker', 'compose']]) {
    const probe = spawnSync(command[0]!, [...command.slice(1), 'version'], { encoding: 'utf8' });
    if (probe.status === 0) return command;
  }
  return undefined;
}

export function composeConfig(
  command: string[],
  file: string,
  env: Record<string, string>,
  emptyEnvFile: string,
): { status: number | null; stdout: string; stderr: string } {
  // Only what we pass: no COMPOSE_* or secrets from the caller's shell, and no .env file.
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => ['PATH', 'HOME', 'LANG', 'LC_ALL'].includes(key)),
  );
  const result = spawnSync(
    command[0]!,
    [...command.slice(1), '--env-file', emptyEnvFile, '-f', file, 'config'],
    {
      encoding: 'utf8',
      env: { ...base, ...env },
    },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
