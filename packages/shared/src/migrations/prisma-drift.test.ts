// Every data app's prisma/migrations must produce its prisma/schema.prisma. When this fails,
// run `pnpm --filter @authz/<app> migration:new <name>` and commit the folder (docs/prisma.md).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffMigrationsToSchema } from '../../scripts/migrations-diff.mjs';
import { baseDatabaseUrl } from '../testing/connection.js';
import { findDataApps, findWorkspaceRoot } from '../testing/workspace.js';

const root = findWorkspaceRoot();
const apps = await findDataApps(root);

describe('Prisma schema vs migrations', () => {
  it('finds the data apps', () => {
    expect(apps.map((app) => app.app)).toEqual(
      expect.arrayContaining(['clients', 'identity', 'oauth', 'wallet-bridge']),
    );
  });

  it.each(apps.map((app) => app.app))('apps/%s: migrations match schema.prisma', async (app) => {
    const { empty, sql } = await diffMigrationsToSchema(join(root, 'apps', app), baseDatabaseUrl());
    const fix = `pnpm --filter @authz/${app} migration:new <name>`;
    expect(empty, `schema.prisma has changes no migration holds; run \`${fix}\`:\n${sql}`).toBe(true);
  });
});
