// One lint configuration for the whole repository (flat config).
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

// Every package lints from its own folder; paths below are anchored at the repository root.
const ROOT = fileURLToPath(new URL('.', import.meta.url));

// Boundaries (docs/architecture.md #16).
const APPS = ['clients', 'consent-ui', 'gateway', 'identity', 'mailer-worker', 'oauth', 'wallet-bridge'];

// Test code: unit tests, benchmarks, per-package helpers and the system and load suites.
const TEST_CODE = [
  '**/*.test.ts',
  '**/*.bench.ts',
  '**/test/**',
  'packages/*/src/testing/**',
  'e2e/**',
  'bench/**',
  '**/vitest.config.ts',
];

const NO_TEST_CODE = [
  {
    regex: '^@authz/shared/testing(/|$)',
    message: 'Test fixtures are for tests only: production code must not import @authz/shared/testing.',
  },
  {
    regex: '^@authz/(e2e|bench)(/|$)',
    message: 'The system and load suites are not libraries: production code must not import them.',
  },
  {
    regex: '^vitest(/|$)',
    message: 'Production code must not import the test runner.',
  },
  {
    regex: '^\\.{1,2}/(.*/)?(test|testing)(/|$)',
    message: 'Production code must not import test helpers (test/ and testing/ folders).',
  },
  {
    regex: '\\.(test|bench)(\\.[cm]?[jt]s)?$',
    message: 'Production code must not import a test file.',
  },
];

// An app reaches another only over gRPC: never its package, never its source. The shared
// library sits below every app and imports none.
const appImports = (names, message) => [
  { regex: `^@authz/(${names.join('|')}|local-suite|e2e|bench)(/|$)`, message },
];
const otherApps = (app) =>
  appImports(
    APPS.filter((other) => other !== app),
    `Apps talk over gRPC only: apps/${app} must not import another app (shared code belongs in packages/shared).`,
  );
const NO_APPS = appImports(APPS, 'packages/ sit below the apps and import none of them.');

const restrictedImports = (patterns) => ['error', { patterns }];

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/gen/**', '**/generated/**', '**/node_modules/**', '.data/**', '**/coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', 'infra/**', '**/scripts/**'],
    languageOptions: { globals: globals.node },
    rules: { 'no-console': 'off' },
  },
  // No import cycles inside a package. `.js` specifiers resolve to the `.ts` sources and
  // workspace packages to their built declarations; those lie outside the linted package and are
  // not followed (ignoreExternal): turbo refuses a dependency cycle between packages.
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [
            `${ROOT}apps/*/tsconfig.json`,
            `${ROOT}packages/*/tsconfig.json`,
            `${ROOT}infra/local/tsconfig.json`,
            `${ROOT}bench/tsconfig.json`,
            `${ROOT}e2e/tsconfig.json`,
          ],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  // Production code imports no test code.
  {
    files: ['**/*.ts'],
    ignores: TEST_CODE,
    rules: { 'no-restricted-imports': restrictedImports(NO_TEST_CODE) },
  },
  // The shared library sits below the apps (tests included).
  {
    files: ['packages/**/*.ts'],
    rules: { 'no-restricted-imports': restrictedImports(NO_APPS) },
  },
  {
    files: ['packages/**/*.ts'],
    ignores: TEST_CODE,
    rules: { 'no-restricted-imports': restrictedImports([...NO_TEST_CODE, ...NO_APPS]) },
  },
  // No app imports another app, by package name or by a relative path (tests included).
  ...APPS.flatMap((app) => [
    {
      files: [`apps/${app}/**/*.ts`],
      rules: {
        'no-restricted-imports': restrictedImports(otherApps(app)),
        'import-x/no-restricted-paths': [
          'error',
          {
            basePath: ROOT,
            zones: [
              {
                target: `./apps/${app}`,
                from: APPS.filter((other) => other !== app).map((other) => `./apps/${other}`),
                message: 'Apps talk over gRPC only; shared code belongs in packages/shared.',
              },
            ],
          },
        ],
      },
    },
    {
      files: [`apps/${app}/**/*.ts`],
      ignores: TEST_CODE,
      rules: { 'no-restricted-imports': restrictedImports([...NO_TEST_CODE, ...otherApps(app)]) },
    },
  ]),
);
