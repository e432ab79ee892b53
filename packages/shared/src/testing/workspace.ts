import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** A service that owns a Postgres schema (docs/conventions.md #8). */
export interface DataApp {
  /** Folder under apps/. */
  readonly app: string;
  /** The Postgres schema its schema.prisma declares. */
  readonly schema: string;
  readonly migrationsDir: string;
}

/** The folder holding pnpm-workspace.yaml, found by walking up from `from`. */
export function findWorkspaceRoot(from = process.cwd()): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no pnpm-workspace.yaml above ${from}`);
  }
}

/** Every apps/<app> with prisma/migrations, its schema read from `schemas = ["..."]`. */
export async function findDataApps(root = findWorkspaceRoot()): Promise<DataApp[]> {
  const apps = (await readdir(join(root, 'apps'))).sort();
  const found: DataApp[] = [];
  for (const app of apps) {
    const prismaDir = join(root, 'apps', app, 'prisma');
    const migrationsDir = join(prismaDir, 'migrations');
    if (!existsSync(migrationsDir)) continue;
    const datamodel = await readFile(join(prismaDir, 'schema.prisma'), 'utf8');
    const schema = /schemas\s*=\s*\[\s*"([^"]+)"/.exec(datamodel)?.[1];
    if (!schema) throw new Error(`apps/${app}/prisma/schema.prisma declares no schemas = ["..."]`);
    found.push({ app, schema, migrationsDir });
  }
  return found;
}
