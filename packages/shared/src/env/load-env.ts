import type { z } from 'zod';

/** Thrown at start-up; main.ts prints it and exits non-zero (docs/contract.md "Environment"). */
export class EnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'EnvironmentError';
  }
}

type ParseResult<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** Empty variables count as unset, as shells and compose files commonly leave them. */
function withoutEmpty(source: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(source).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
}

export function parseEnv<S extends z.ZodType>(
  schema: S,
  source: NodeJS.ProcessEnv,
): ParseResult<z.output<S>> {
  const result = schema.safeParse(withoutEmpty(source));
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    problems: result.error.issues.map(
      (issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`,
    ),
  };
}

/** Parses the environment once with a zod schema; every message names the bad variable. */
export function loadEnv<S extends z.ZodType>(
  schema: S,
  source: NodeJS.ProcessEnv = process.env,
): z.output<S> {
  const result = parseEnv(schema, source);
  if (!result.ok) throw new EnvironmentError(result.problems);
  return result.value;
}

/** Parses several schemas and reports every problem of all of them at once. */
export function loadEnvParts<T extends Record<string, z.ZodType>>(
  schemas: T,
  source: NodeJS.ProcessEnv = process.env,
): { [K in keyof T]: z.output<T[K]> } {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, schema] of Object.entries(schemas)) {
    const result = parseEnv(schema, source);
    if (result.ok) values[key] = result.value;
    else problems.push(...result.problems);
  }
  if (problems.length > 0) throw new EnvironmentError(problems);
  return values as { [K in keyof T]: z.output<T[K]> };
}
