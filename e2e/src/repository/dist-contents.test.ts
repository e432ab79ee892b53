// The production build ships no test code: every package with a tsconfig.build.json is compiled
// as `pnpm build` compiles it, but into a fresh temporary folder (dist/ is left alone), and what it
// emits is checked: no test or benchmark file, nothing from a test/ or testing/ folder, no import
// of test fixtures, of the system suite or of the test runner.
//
// One exception: packages/shared builds src/testing/ on purpose. It is the `@authz/shared/testing`
// export that the other packages' tests and vitest configs load from dist/; the Dockerfile drops
// it from the runtime image.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT, workspacePackages } from './workspace-sources.js';

const run = promisify(execFile);
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Folders whose emitted `testing/` is intended (see above). */
const SHIPPED_TESTING = new Set(['packages/shared']);

const TEST_FILE = /\.(test|bench|spec)\.(js|d\.ts)$/;
const FORBIDDEN_IMPORT = /^(@authz\/shared\/testing|@authz\/e2e|vitest)(\/|$)/;

const built = workspacePackages().filter((pkg) =>
  existsSync(join(REPOSITORY_ROOT, pkg, 'tsconfig.build.json')),
);

function emittedFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) files.push(...emittedFiles(path));
    else files.push(path);
  }
  return files;
}

/** What is wrong with one emitted file, if anything. */
function problemsOf(pkg: string, outDir: string, file: string): string[] {
  const name = relative(outDir, file).split('\\').join('/');
  const shipsTesting = SHIPPED_TESTING.has(pkg) && /^testing\//.test(name);
  const problems: string[] = [];
  if (TEST_FILE.test(name)) problems.push(`${pkg}: ${name} is a test file`);
  if (/(^|\/)(test|testing)\//.test(name) && !shipsTesting) problems.push(`${pkg}: ${name} is test support`);
  if (/\.(js|d\.ts)$/.test(name) && !shipsTesting) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (FORBIDDEN_IMPORT.test(fileName)) problems.push(`${pkg}: ${name} imports ${fileName}`);
    }
  }
  return problems;
}

describe('the production build', () => {
  const outRoot = mkdtempSync(join(tmpdir(), 'dist-contents-'));
  const outDirs = new Map(built.map((pkg) => [pkg, join(outRoot, pkg.replace('/', '-'))]));

  beforeAll(async () => {
    // Two compilers at a time: tsc is single-threaded and the machines have two cores.
    const queue = [...built];
    const worker = async (): Promise<void> => {
      for (let pkg = queue.shift(); pkg !== undefined; pkg = queue.shift()) {
        await run(process.execPath, [TSC, '-p', 'tsconfig.build.json', '--outDir', outDirs.get(pkg)!], {
          cwd: join(REPOSITORY_ROOT, pkg),
        });
      }
    };
    await Promise.all([worker(), worker()]);
  }, 600_000);

  afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

  it('covers every app', () => {
    const apps = workspacePackages().filter((pkg) => pkg.startsWith('apps/'));
    expect(apps.length).toBeGreaterThan(0);
    expect(built).toEqual(expect.arrayContaining([...apps, 'packages/shared']));
  });

  it.each(built)('%s emits no test code', (pkg) => {
    const outDir = outDirs.get(pkg)!;
    const files = emittedFiles(outDir);
    expect(files.some((file) => file.endsWith('.js'))).toBe(true);
    expect(files.flatMap((file) => problemsOf(pkg, outDir, file))).toEqual([]);
  });
});
