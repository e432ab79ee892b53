import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { walkUpTo } from './paths.js';
import { PACKAGE_DIR } from './test/launcher.js';

/** No Docker engine runs the tests: check what can drift from the repository instead. */
const root = walkUpTo('pnpm-workspace.yaml', PACKAGE_DIR)!;

describe('Dockerfile', () => {
  it('installs the pnpm of the packageManager field, frozen, on the Node 20 base', async () => {
    const dockerfile = await readFile(join(root, 'Dockerfile'), 'utf8');
    const { packageManager } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
      packageManager: string;
    };
    expect(dockerfile).toContain(`npm install --global ${packageManager}`);
    expect(dockerfile).toContain('ARG NODE_IMAGE=node:20-bookworm-slim');
    expect(dockerfile).toMatch(/pnpm install --frozen-lockfile --offline && pnpm build/);
  });

  it('builds in one stage and runs from a fresh base that only receives the built workspace', async () => {
    const dockerfile = await readFile(join(root, 'Dockerfile'), 'utf8');
    const stages = dockerfile.split(/^(?=FROM )/m).slice(1);
    expect(stages.map((stage) => /^FROM (\S+)(?: AS (\S+))?/.exec(stage)!.slice(1))).toEqual([
      ['${NODE_IMAGE}', 'base'],
      ['base', 'build'],
      ['${NODE_IMAGE}', 'runtime'],
    ]);
    const runtime = stages[2]!;
    expect(runtime.match(/^COPY .*$/gm)).toEqual(['COPY --from=build /app /app']);
    // No compilers or package installs in the image that runs: they stay in the build stage.
    expect(runtime).not.toMatch(/apt-get|npm install|pnpm install/);
    expect(stages[1]).toMatch(/apt-get install .*python3 make g\+\+/);
  });

  it('runs the final stage as a non-root user', async () => {
    const dockerfile = await readFile(join(root, 'Dockerfile'), 'utf8');
    const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(finalStage).toMatch(/^USER (?!root\b|0\b)\S+$/m);
  });

  it('keeps dependencies, build output, local data and git out of the build context', async () => {
    const ignored = (await readFile(join(root, '.dockerignore'), 'utf8'))
      .split('\n')
      .map((line) => line.trim());
    for (const entry of ['**/node_modules', '**/dist', '.data', '.git', '.env'])
      expect(ignored).toContain(entry);
  });
});
