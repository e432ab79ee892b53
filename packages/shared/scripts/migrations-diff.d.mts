// Types of migrations-diff.mjs, for the drift test in src/migrations.
export declare const DEFAULT_DATABASE_URL: string;
export declare const LOCKFILE: string;
export declare const LOCKFILE_CONTENT: string;
export declare function diffMigrationsToSchema(
  appDir: string,
  baseUrl?: string,
): Promise<{ empty: boolean; sql: string }>;
