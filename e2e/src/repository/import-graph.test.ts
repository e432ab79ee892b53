// What import-x/no-cycle in eslint.config.mjs does not see: cycles through type-only imports; and
// production files that only tests import (dead code kept alive for its tests, or a test helper
// outside test/ and testing/ that the build would ship).
import { describe, expect, it } from 'vitest';
import {
  importCycles,
  importGraph,
  isTestCode,
  typeScriptFiles,
  workspacePackages,
} from './workspace-sources.js';

describe('the import graph of the repository', () => {
  const graph = importGraph(workspacePackages().flatMap((pkg) => typeScriptFiles(pkg)));

  it('has no cycle, type-only imports included', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('has no production file that only test code imports', () => {
    const production = (file: string): boolean => !isTestCode(file);
    const importers = new Map<string, string[]>();
    for (const [file, imports] of graph) {
      for (const imported of imports) importers.set(imported, [...(importers.get(imported) ?? []), file]);
    }
    const importedOnlyByTests = [...graph.keys()].filter((file) => {
      const users = importers.get(file) ?? [];
      return production(file) && users.length > 0 && !users.some(production);
    });
    expect(importedOnlyByTests).toEqual([]);
  });
});
