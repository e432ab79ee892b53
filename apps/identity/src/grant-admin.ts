// Operator command (docs/admin-api.md #1):
//   node apps/identity/dist/grant-admin.js <email>            grants the admin role
//   node apps/identity/dist/grant-admin.js --revoke <email>   revokes it
// with DATABASE_URL set. Exit codes: 0 done (or nothing to change), 1 no account has the
// address or the database failed, 2 usage.
import { createPrismaAdapter } from '@authz/shared/database';
import { createLogger } from '@authz/shared/logger';
import { runGrantAdmin } from './admin/grant-admin-command.js';

const USAGE = 'usage: DATABASE_URL=... grant-admin.js [--revoke] <email>';
const args = process.argv.slice(2);
const revoke = args.includes('--revoke');
const rest = args.filter((arg) => arg !== '--revoke');
const databaseUrl = process.env.DATABASE_URL;

if (rest.length !== 1 || rest[0]!.startsWith('-') || !databaseUrl) {
  process.stderr.write(`${USAGE}\n`);
  process.exitCode = 2;
} else {
  const log = createLogger({ service: 'identity-grant-admin', level: process.env.LOG_LEVEL ?? 'warn' });
  const result = await runGrantAdmin(createPrismaAdapter(databaseUrl, log), rest[0]!, !revoke);
  (result.exitCode === 0 ? process.stdout : process.stderr).write(`${result.message}\n`);
  process.exitCode = result.exitCode;
}
