import { vi } from 'vitest';
import type pg from 'pg';

/** The services' own Postgres schemas (docs/conventions.md #8). */
const SERVICE_SCHEMAS = ['identity', 'oauth', 'clients', 'wallet'];

export interface WriteLog {
  /** Writes committed since the last call, as `INSERT identity.audit_events`. */
  since(): Promise<string[]>;
  /**
   * Waits until work a request left behind is done (the identity outbox relay moves new mail
   * rows to the queue right after the response), then forgets what it wrote.
   */
  settle(): Promise<void>;
}

/**
 * Records every row any service inserts, updates or deletes in this test file's database: an
 * AFTER ... FOR EACH ROW trigger on each of their tables appends to `public.write_log`. The
 * log is transactional, so a write rolled back (a unique violation refused as 409) leaves
 * nothing, and it sees updates, which counting rows would miss.
 */
export async function installWriteLog(sql: pg.Client): Promise<WriteLog> {
  await sql.query(`
    CREATE TABLE public.write_log (id bigserial PRIMARY KEY, write text NOT NULL);
    CREATE FUNCTION public.log_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO public.write_log (write) VALUES (TG_OP || ' ' || TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME);
        RETURN NULL;
      END $$;`);
  const tables = await sql.query<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_schema = ANY($1) AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'`,
    [SERVICE_SCHEMAS],
  );
  for (const { schema, name } of tables.rows) {
    await sql.query(
      `CREATE TRIGGER log_write AFTER INSERT OR UPDATE OR DELETE ON "${schema}"."${name}"
        FOR EACH ROW EXECUTE FUNCTION public.log_write()`,
    );
  }
  let last = 0;
  const since = async () => {
    const { rows } = await sql.query<{ id: string; write: string }>(
      'SELECT id, write FROM public.write_log WHERE id > $1 ORDER BY id',
      [last],
    );
    if (rows.length > 0) last = Number(rows[rows.length - 1]!.id);
    return rows.map((row) => row.write);
  };
  return {
    since,
    async settle() {
      await vi.waitFor(
        async () => {
          const { rows } = await sql.query<{ pending: string }>(
            'SELECT count(*) AS pending FROM identity.mail_outbox WHERE enqueued_at IS NULL',
          );
          if (Number(rows[0]!.pending) > 0) throw new Error('mail outbox rows not relayed yet');
          // A session end is relayed, and its row deleted, just after the request that ended it.
          const { rows: ends } = await sql.query<{ pending: string }>(
            'SELECT count(*) AS pending FROM identity.session_end_outbox',
          );
          if (Number(ends[0]!.pending) > 0) throw new Error('session ends not relayed yet');
        },
        { timeout: 10_000, interval: 20 },
      );
      await since();
    },
  };
}

/** A refusal: an error status, or a redirect that carries an error to the client (RFC 6749 4.1.2.1). */
export function refused({ status, headers }: { status: number; headers: Record<string, unknown> }): boolean {
  if (status >= 400) return true;
  const location = typeof headers.location === 'string' ? headers.location : '';
  return status >= 300 && status < 400 && /[?&]error=/.test(location);
}

/**
 * What a refusal may write, on purpose: the audit row of a failed sign-in (docs/identity.md
 * #8) or of a wrong current password (docs/identity.md #18), and the revocation that a reused refresh token or code sets off (RFC 9700 4.14.2,
 * RFC 6749 4.1.2; docs/tokens.md #11, docs/authorization.md #12). Nothing else.
 */
export function allowedRefusalWrites(
  response: { method: string; path: string; status: number; body: string },
  written: string[],
): boolean {
  if (written.length === 0) return true;
  const post = (path: RegExp) => response.method === 'POST' && path.test(response.path);
  if (post(/^\/(auth|ui)\/login\/?$/) && response.status === 401) {
    return written.every((write) => write === 'INSERT identity.audit_events');
  }
  // A wrong current password at a password or address change is audited like a failed
  // sign-in (docs/identity.md #18).
  if (
    post(/^\/(auth\/change-(password|email)|ui\/account\/(password|email))\/?$/) &&
    response.status === 401
  ) {
    return written.every((write) => write === 'INSERT identity.audit_events');
  }
  if (post(/^\/oauth\/token\/?$/) && response.status === 400 && response.body.includes('"invalid_grant"')) {
    return written.every((write) =>
      /^UPDATE oauth\.(refresh_token_families|refresh_tokens|authorization_codes)$/.test(write),
    );
  }
  return false;
}
