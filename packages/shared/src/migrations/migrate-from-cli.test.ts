import { describe, expect, it, vi } from 'vitest';
import { migrateFromCli } from './migrate-from-cli.js';

describe('migrateFromCli', () => {
  it('exits 1 naming DATABASE_URL when it is missing', async () => {
    const logger = { info: vi.fn(), error: vi.fn() };
    const code = await migrateFromCli({ schema: 'x', migrationsDir: '.', logger, env: {} });
    expect(code).toBe(1);
    expect(logger.error).toHaveBeenCalledWith(expect.anything(), expect.stringContaining('DATABASE_URL'));
  });
});
