// The repository's TypeScript sources and their relative imports, read from the files themselves
// (type-only imports included): for the boundary tests in this folder.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const REPOSITORY_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'gen', 'generated', 'coverage', '.turbo']);

/** The workspace packages that have TypeScript sources, as paths relative to the root. */
export function workspacePackages(): string[] {
  const packages: string[] = [];
  for (const group of ['apps', 'packages']) {
    for (const name of readdirSync(join(REPOSITORY_ROOT, group)).sort()) {
      if (existsSync(join(REPOSITORY_ROOT, group, name, 'package.json'))) packages.push(`${group}/${name}`);
    }
  }
  return [...packages, 'infra/local', 'bench', 'e2e'];
}

/** Test code, as eslint.config.mjs defines it: tests, benchmarks, helpers, the system and load suites. */
export function isTestCode(path: string): boolean {
  const file = path.split(sep).join('/');
  return (
    /\.(test|bench)\.ts$/.test(file) ||
    /(^|\/)test\//.test(file) ||
    /^packages\/[^/]+\/src\/testing\//.test(file) ||
    /^(e2e|bench)\//.test(file) ||
    /(^|\/)vitest\.config\.ts$/.test(file)
  );
}

/** Every .ts file under `folder` (relative to the root), generated code left out. */
export function typeScriptFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir).sort()) {
      if (SKIPPED_FOLDERS.has(entry)) continue;
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.ts') && !entry.endsWith('.d.ts')) found.push(relative(REPOSITORY_ROOT, path));
    }
  };
  walk(join(REPOSITORY_ROOT, folder));
  return found;
}

interface PackageEntry {
  /** Subpath pattern, e.g. `@authz/shared/` + `*`. */
  specifier: RegExp;
  /** The source file for a match, `$1` standing for the `*`. */
  source: string;
}

let packageEntries: PackageEntry[] | undefined;

/** The source behind each export of each workspace package (`./dist/x.js` is `src/x.ts`). */
function workspaceEntries(): PackageEntry[] {
  if (packageEntries !== undefined) return packageEntries;
  packageEntries = [];
  for (const pkg of workspacePackages()) {
    const manifest = JSON.parse(readFileSync(join(REPOSITORY_ROOT, pkg, 'package.json'), 'utf8')) as {
      name: string;
      exports?: Record<string, { default?: string }>;
    };
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (target.default === undefined || !target.default.startsWith('./dist/')) continue;
      const escaped = (manifest.name + subpath.slice(1)).replace(/[.+?^${}()|[\]\\/]/g, '\\$&');
      packageEntries.push({
        specifier: new RegExp(`^${escaped.replace('*', '([^/]+)')}$`),
        source: join(
          pkg,
          target.default
            .replace(/^\.\/dist\//, 'src/')
            .replace(/\.js$/, '.ts')
            .replace('*', '$1'),
        ),
      });
    }
  }
  return packageEntries;
}

/**
 * The repository files a source imports, type-only imports included: relative paths (`./x.js` is
 * `./x.ts`) and workspace packages (`@authz/shared/logger` is packages/shared/src/logger/index.ts).
 */
export function relativeImports(file: string): string[] {
  const text = readFileSync(join(REPOSITORY_ROOT, file), 'utf8');
  const { importedFiles } = ts.preProcessFile(text, true, true);
  const imports: string[] = [];
  for (const { fileName } of importedFiles) {
    if (!fileName.startsWith('.')) {
      const entry = workspaceEntries().find(({ specifier }) => specifier.test(fileName));
      const source = entry === undefined ? undefined : fileName.replace(entry.specifier, entry.source);
      if (source !== undefined && existsSync(join(REPOSITORY_ROOT, source))) imports.push(source);
      continue;
    }
    const target = resolve(REPOSITORY_ROOT, dirname(file), fileName);
    const candidates = [target.replace(/\.js$/, '.ts'), `${target}.ts`, join(target, 'index.ts'), target];
    const hit = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
    if (hit !== undefined && hit.endsWith('.ts')) imports.push(relative(REPOSITORY_ROOT, hit));
  }
  return imports;
}

/** Import graph of the given files: file -> the files it imports (relative imports only). */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  return new Map(files.map((file) => [file, relativeImports(file)]));
}

/** Strongly connected components with more than one file (or a file importing itself). */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, counter);
    lowLink.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(file, Math.min(lowLink.get(file)!, index.get(next)!));
      }
    }
    if (lowLink.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}
