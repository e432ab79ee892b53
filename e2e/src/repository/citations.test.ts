import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';

// The repository stands alone: every document it cites is one of its own files, every numbered
// citation names a numbered section that exists, and nothing points at documents kept
// elsewhere. Pure filesystem: no service is started.
//
// (a) a cited markdown path (a docs/ page, a README, a relative `.md` link) names a file of the
//     repository;
// (b) `docs/<file>.md #N` (also `#N-M`, `#N, #M`) names a numbered section of that file: a
//     heading `## N. Title` / `## N Title`, or a numbered item `N. **Title**`, the two styles
//     docs/ uses;
// (c) `interface.md N.M` (with or without `docs/`, also `N item M` and lists `N.M, K`) names a
//     heading of docs/interface.md;
// (d) nothing cites the upper-case names of the old top-level documents, nor "the spec" by
//     section number, nor an issue of a tracker outside the repository.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const TEXT_EXTENSIONS = new Set([
  'ts',
  'mts',
  'cts',
  'js',
  'mjs',
  'cjs',
  'md',
  'json',
  'yaml',
  'yml',
  'prisma',
  'proto',
  'sql',
  'sh',
]);
const SKIPPED_SEGMENTS = new Set(['node_modules', 'dist', 'gen', 'generated', '.turbo', '.data']);
const SKIPPED_FILES = new Set(['pnpm-lock.yaml']);

interface Problem {
  file: string;
  line: number;
  citation: string;
  reason: string;
}

const render = ({ file, line, citation, reason }: Problem) => `${file}:${line}: ${citation} (${reason})`;

/** Tracked files and untracked ones git does not ignore, as repository-relative paths. */
function repositoryFiles(): string[] {
  const output = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(output.split('\0').filter(Boolean))].filter((path) => {
    if (path.split('/').some((segment) => SKIPPED_SEGMENTS.has(segment))) return false;
    const full = posix.join(ROOT, path);
    return existsSync(full) && statSync(full).isFile();
  });
}

function isText(path: string): boolean {
  const name = posix.basename(path);
  if (SKIPPED_FILES.has(name)) return false;
  if (name === 'Dockerfile' || name.startsWith('Dockerfile.')) return true;
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '';
  return TEXT_EXTENSIONS.has(extension);
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

/** A path-like token ending in `.md`; a URL never matches (its host follows `//`). */
const MARKDOWN_PATH = /(?<![\w./-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w.-]+\.md)\b(?![\w-])/g;

/**
 * Where a cited markdown path points: `./` and `../` from the citing file's folder, a path with
 * a folder from the repository root (or, in markdown, from the citing file's folder, as a
 * link is), a bare name from the citing file's folder, the root or docs/.
 */
function resolveMarkdown(
  citing: string,
  cited: string,
  exists: (path: string) => boolean,
): string | undefined {
  const folder = posix.dirname(citing);
  const candidates =
    cited.startsWith('./') || cited.startsWith('../')
      ? [posix.join(folder, cited)]
      : cited.includes('/')
        ? [posix.normalize(cited), ...(citing.endsWith('.md') ? [posix.join(folder, cited)] : [])]
        : [posix.join(folder, cited), cited, posix.join('docs', cited)];
  return candidates.find((candidate) => !candidate.startsWith('..') && exists(candidate));
}

/** (a) cited markdown documents that are not in the repository. */
function missingDocuments(file: string, text: string, exists: (path: string) => boolean): Problem[] {
  const problems: Problem[] = [];
  for (const match of text.matchAll(MARKDOWN_PATH)) {
    const cited = match[1]!;
    if (resolveMarkdown(file, cited, exists) === undefined) {
      problems.push({ file, line: lineAt(text, match.index), citation: cited, reason: 'no such document' });
    }
  }
  return problems;
}

/**
 * The numbered sections of a document: headings `## 4. Title`, `### 4.7 Title`, `## 4 Title`,
 * and numbered items `12. **Title**` (the style of the decision lists in docs/).
 */
function numberedSections(markdown: string): Set<string> {
  const sections = new Set<string>();
  for (const match of markdown.matchAll(/^#{1,6}[ \t]+(\d+(?:\.\d+)*)\.?[ \t]/gm)) sections.add(match[1]!);
  for (const match of markdown.matchAll(/^[ \t]*(\d+)\.[ \t]+\*\*/gm)) sections.add(match[1]!);
  return sections;
}

/** Between a cited path and its number: a closing backtick or link, a line break in a comment. */
const GAP = String.raw`[\`)]?\s+(?:(?:\*|\/\/|#)[ \t]+)?`;
const NUMBER_LIST = String.raw`#\d+(?:\s*(?:-|–|to)\s*\`?#?\d+)?(?:\`?\s*(?:,|and|or)\s*\`?#\d+(?:\s*(?:-|–|to)\s*\`?#?\d+)?)*`;
const NUMBERED_CITATION = new RegExp(
  String.raw`(?<![\w./-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w.-]+\.md)${GAP}(${NUMBER_LIST})`,
  'g',
);

/** `#7`, `#17-19`, `#7-#10`, `#12, #13` → the numbers they name. */
function citedNumbers(list: string): string[] {
  const numbers: string[] = [];
  for (const part of list.matchAll(/#(\d+)(?:\s*(?:-|–|to)\s*`?#?(\d+))?/g)) {
    const first = Number(part[1]);
    const last = part[2] === undefined ? first : Number(part[2]);
    for (let number = first; number <= Math.max(first, last); number += 1) numbers.push(String(number));
  }
  return numbers;
}

/** (b) `docs/<file>.md #N` naming no numbered section of an existing file. */
function missingNumberedSections(
  file: string,
  text: string,
  exists: (path: string) => boolean,
  sectionsOf: (path: string) => Set<string>,
): Problem[] {
  const problems: Problem[] = [];
  for (const match of text.matchAll(NUMBERED_CITATION)) {
    const target = resolveMarkdown(file, match[1]!, exists);
    // interface.md is cited by section number (c); a missing document is reported by (a).
    if (target === undefined || target === 'docs/interface.md') continue;
    const sections = sectionsOf(target);
    for (const number of citedNumbers(match[2]!)) {
      if (!sections.has(number)) {
        problems.push({
          file,
          line: lineAt(text, match.index),
          citation: `${match[1]} #${number}`,
          reason: `${target} has no section ${number}`,
        });
      }
    }
  }
  return problems;
}

const SECTION = String.raw`\d+(?:\.\d+)*(?:\s+items?\s+\d+)?`;
const INTERFACE_CITATION = new RegExp(
  String.raw`(?<![\w-])(?:docs\/)?interface\.md\`?\s+(${SECTION}(?:\s*,\s*${SECTION}(?![\w.%-]))*)`,
  'g',
);

/** `4.7`, `1 item 7`, `4.2, 4.9`, `1 items 5, 6` → `4.7`, `1.7`, `4.2`, `4.9`, `1.5`. */
function citedSections(list: string): string[] {
  const sections: string[] = [];
  let parent: string | undefined;
  for (const part of list.split(',').map((piece) => piece.trim())) {
    const item = /^(\d+(?:\.\d+)*)\s+items?\s+(\d+)$/.exec(part);
    if (item) {
      parent = item[1]!;
      sections.push(`${parent}.${item[2]}`);
    } else if (parent !== undefined && /^\d+$/.test(part) && list.includes('item')) {
      sections.push(`${parent}.${part}`);
    } else {
      parent = undefined;
      sections.push(part);
    }
  }
  return sections;
}

/** (c) `interface.md N.M` naming no heading of docs/interface.md. */
function missingInterfaceSections(file: string, text: string, sections: Set<string>): Problem[] {
  const problems: Problem[] = [];
  for (const match of text.matchAll(INTERFACE_CITATION)) {
    for (const section of citedSections(match[1]!)) {
      if (!sections.has(section)) {
        problems.push({
          file,
          line: lineAt(text, match.index),
          citation: `interface.md ${section}`,
          reason: 'docs/interface.md has no such heading',
        });
      }
    }
  }
  return problems;
}

/** (d) citations of documents that live outside the repository. */
const OUTSIDE_CITATIONS: { pattern: RegExp; reason: string }[] = [
  {
    pattern: /\b(?:DECISIONS|CONTRACT|CONVENTIONS|ARCHITECTURE|PRISMA)(?:\.md\b|\s+#\d)/g,
    reason: 'an old upper-case document name: cite the file under docs/',
  },
  {
    // A section of another specification named by its acronym (PNG, CSP) is fine.
    pattern: /(?<!\b[A-Z][A-Z0-9]+\s)\b[Ss]pec(?:'s)?\s+(?:[Ss]ections?\s+)?\d/g,
    reason: 'a bare spec section: cite docs/interface.md N.M',
  },
  {
    // "the spec (interface.md)" names the document of the repository and is fine.
    pattern: /\bthe\s+spec\s*\((?!`?(?:docs\/)?interface\.md)/gi,
    reason: 'a bare spec reference: cite docs/interface.md N.M',
  },
  {
    // The extension sections (X1-X6) were written into docs/interface.md; their old names stay out.
    pattern: /\b(?:[Ee]xtensions|spec's)\s+X\d\b/g,
    reason: 'an extension section kept outside: cite docs/interface.md N.M',
  },
  {
    pattern: /\bissue\s+(?:\d+\s+)?items?\s+\d|\bissue\s+\d+\b/gi,
    reason: 'an issue of an outside tracker: cite a document of the repository',
  },
];

function outsideCitations(file: string, text: string): Problem[] {
  const problems: Problem[] = [];
  for (const { pattern, reason } of OUTSIDE_CITATIONS) {
    for (const match of text.matchAll(pattern)) {
      problems.push({
        file,
        line: lineAt(text, match.index),
        citation: match[0].replace(/\s+/g, ' '),
        reason,
      });
    }
  }
  return problems;
}

interface Repository {
  files: string[];
  read(path: string): string;
  exists(path: string): boolean;
}

function scan(repository: Repository) {
  const sectionCache = new Map<string, Set<string>>();
  const sectionsOf = (path: string) => {
    let sections = sectionCache.get(path);
    if (!sections) {
      sections = numberedSections(repository.read(path));
      sectionCache.set(path, sections);
    }
    return sections;
  };
  const interfaceSections = repository.exists('docs/interface.md')
    ? sectionsOf('docs/interface.md')
    : new Set<string>();
  const result = {
    documents: [] as Problem[],
    numbers: [] as Problem[],
    interface: [] as Problem[],
    outside: [] as Problem[],
  };
  for (const file of repository.files.filter(isText)) {
    const text = repository.read(file);
    result.documents.push(...missingDocuments(file, text, repository.exists));
    result.numbers.push(...missingNumberedSections(file, text, repository.exists, sectionsOf));
    result.interface.push(...missingInterfaceSections(file, text, interfaceSections));
    result.outside.push(...outsideCitations(file, text));
  }
  return result;
}

function diskRepository(): Repository {
  const files = repositoryFiles();
  const known = new Set(files);
  return {
    files,
    read: (path) => readFileSync(posix.join(ROOT, path), 'utf8'),
    exists: (path) => known.has(path),
  };
}

function memoryRepository(contents: Record<string, string>): Repository {
  return {
    files: Object.keys(contents),
    read: (path) => contents[path] ?? '',
    exists: (path) => path in contents,
  };
}

describe('citations in the repository', () => {
  const found = scan(diskRepository());

  it('(a) every cited markdown document exists', () => {
    expect(found.documents.map(render)).toEqual([]);
  });

  it('(b) every docs/<file>.md #N names a numbered section of that file', () => {
    expect(found.numbers.map(render)).toEqual([]);
  });

  it('(c) every interface.md N.M names a heading of docs/interface.md', () => {
    expect(found.interface.map(render)).toEqual([]);
  });

  it('(d) nothing cites documents kept outside the repository', () => {
    expect(found.outside.map(render)).toEqual([]);
  });
});

describe('the citation checks themselves', () => {
  // Built from pieces so that this file does not cite what it describes.
  const md = (path: string) => `${path}.md`;
  const doc = (name: string) => md(`docs/${name}`);
  const fixture = memoryRepository({
    [doc('interface')]: '# I\n\n## 4. Endpoints\n\n### 4.7 Clients\n\n### 1.3 PKCE\n',
    [doc('tokens')]: '# T\n\n1. **One**\n2. **Two**\n\n## 7. Seven\n',
    'apps/a.ts': [
      `// ${doc('tokens')} #2 and ${doc('tokens')} #1-2, #7 are fine; ${doc('tokens')} #3 is not`,
      `// ${doc('missing')} and ${md('../outside')}`,
      `/** interface.md 4.7, 4.7, 1 item 3; interface.md 4.8 and ${doc('interface')} 9 */`,
      `// ${['DECISIONS', 'md'].join('.')} ${['DECISIONS', '#2'].join(' ')}`,
      `// ${['the spec', '(7)'].join(' ')}; ${['spec', '4.7'].join(' ')}; ${['spec section', '4'].join(' ')}`,
      `// PNG ${['spec', '11.2.2'].join(' ')}, ${['issue', '8 item 7'].join(' ')}, ${['the spec', `(${doc('interface')})`].join(' ')}`,
      `// ${['extensions', 'X3'].join(' ')}; ${["the spec's", 'X1'].join(' ')}`,
      'const url = "https://example.com/guide/README.md";',
    ].join('\n'),
    [doc('b')]: `[tokens](${md('tokens')}) #7, [gone](${md('gone')})\n`,
  });
  const found = scan(fixture);

  it('reports missing documents, relative links included', () => {
    expect(found.documents.map((problem) => problem.citation).sort()).toEqual(
      [md('../outside'), doc('missing'), md('gone'), md('DECISIONS')].sort(),
    );
  });

  it('reports numbers without a section, reading ranges and lists', () => {
    expect(found.numbers.map(render)).toEqual([
      `apps/a.ts:1: ${doc('tokens')} #3 (${doc('tokens')} has no section 3)`,
    ]);
    expect(citedNumbers('#17-19, #25')).toEqual(['17', '18', '19', '25']);
    expect(citedNumbers('#7-#10')).toEqual(['7', '8', '9', '10']);
  });

  it('reports interface sections without a heading', () => {
    expect(found.interface.map((problem) => problem.citation)).toEqual([
      'interface.md 4.8',
      'interface.md 9',
    ]);
    expect(citedSections('1 item 7, 2.6, 3')).toEqual(['1.7', '2.6', '3']);
  });

  it('reports outside names, bare spec sections and outside issues, not other specifications', () => {
    expect(found.outside.map((problem) => `${problem.line}: ${problem.citation}`)).toEqual([
      `4: ${['DECISIONS', 'md'].join('.')}`,
      `4: ${['DECISIONS', '#2'].join(' ')}`,
      `5: ${['spec', '4'].join(' ')}`,
      `5: ${['spec section', '4'].join(' ')}`,
      `5: ${['the spec', '('].join(' ')}`,
      `7: ${['extensions', 'X3'].join(' ')}`,
      `7: ${["spec's", 'X1'].join(' ')}`,
      `6: ${['issue', '8 item 7'].join(' ')}`,
    ]);
  });
});
