import { readFile } from 'node:fs/promises';

// The 10,000 most common passwords of SecLists (Daniel Miessler, MIT licence; see
// data/common-passwords.LICENSE and docs/identity.md). src/ and dist/ both sit two levels
// below this file's folder, so the URL resolves from either.
const LIST_URL = new URL('../../data/common-passwords.txt', import.meta.url);

/** Loads the shipped list once at start-up, lower-cased: lookups are case-insensitive. */
export async function loadCommonPasswords(url: URL = LIST_URL): Promise<ReadonlySet<string>> {
  const text = await readFile(url, 'utf8');
  return new Set(
    text
      .split(/\r?\n/)
      .map((line) => line.normalize('NFKC').toLowerCase())
      .filter((line) => line.length > 0),
  );
}
