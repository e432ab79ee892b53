import { readFile, rm, writeFile } from 'node:fs/promises';
import { isAlive } from './processes.js';

/**
 * One launcher per data folder: a second `pnpm start` on the same `.data/` would otherwise
 * take the first one's PostgreSQL for a leftover and stop it. Returns the release function.
 */
export async function acquireLock(file: string): Promise<() => Promise<void>> {
  try {
    await writeFile(file, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number((await readFile(file, 'utf8')).trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
      throw new Error(
        `another launcher (pid ${holder}) is using this data folder; stop it, set AUTHZ_DATA_DIR ` +
          `to another folder, or delete ${file} if that process is not a launcher`,
      );
    }
    // The previous launcher died without releasing it.
    await writeFile(file, String(process.pid));
  }
  return async () => {
    const holder = await readFile(file, 'utf8').catch(() => '');
    if (holder.trim() === String(process.pid)) await rm(file, { force: true });
  };
}
