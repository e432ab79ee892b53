import { describe, expect, it } from 'vitest';
import { sqlOperation, sqlSpanOperation } from './sql-operation.js';

describe('sqlOperation: what a span may say about a statement', () => {
  it.each([
    [
      'SELECT "oauth"."refresh_tokens"."id", "oauth"."refresh_tokens"."family_id" FROM "oauth"."refresh_tokens" WHERE ("oauth"."refresh_tokens"."token_hash" = $1) LIMIT $2 OFFSET $3',
      { name: 'SELECT', collection: 'oauth.refresh_tokens' },
      'db.refresh_tokens.select',
    ],
    [
      'INSERT INTO "identity"."outbox" ("id","payload") VALUES ($1,$2) RETURNING "identity"."outbox"."id"',
      { name: 'INSERT', collection: 'identity.outbox' },
      'db.outbox.insert',
    ],
    [
      'UPDATE "clients"."clients" SET "last_used_at" = $1 WHERE "id" = $2',
      { name: 'UPDATE', collection: 'clients.clients' },
      'db.clients.update',
    ],
    [
      '  delete from sessions where expires_at < now()',
      { name: 'DELETE', collection: 'sessions' },
      'db.sessions.delete',
    ],
    ['BEGIN', { name: 'BEGIN' }, 'db.begin'],
    ['SELECT 1', { name: 'SELECT' }, 'db.select'],
    ["SELECT 'it''s FROM x' FROM y", { name: 'SELECT', collection: 'y' }, 'db.y.select'],
    ['-- comment\nSELECT 1', { name: 'QUERY' }, 'db.query'],
  ])('%s', (sql, operation, spanOperation) => {
    expect(sqlOperation(sql)).toEqual(operation);
    expect(sqlSpanOperation(sqlOperation(sql))).toBe(spanOperation);
  });

  it('never carries a value: only identifiers and keywords come through', () => {
    for (const sql of [`SELECT * FROM "a b" WHERE secret = 'hunter2'`, `SELECT 'UPDATE hunter2' AS x`]) {
      expect(JSON.stringify(sqlOperation(sql))).not.toContain('hunter2');
    }
  });
});
