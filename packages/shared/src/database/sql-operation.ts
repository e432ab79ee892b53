/** What a span may say about a statement: its verb and its table, never its text or values. */
export interface SqlOperation {
  /** The statement's first keyword, upper-cased: SELECT, INSERT, BEGIN, ... */
  name: string;
  /** `schema.table` as written after FROM, INTO or UPDATE, when there is one. */
  collection?: string;
}

const VERB = /^\s*([A-Za-z]{1,20})\b/;
// Prisma quotes every identifier ("oauth"."refresh_tokens"); hand-written SQL may not.
const IDENTIFIER = String.raw`(?:"[^"]{1,63}"|[A-Za-z_][\w$]{0,62})`;
const TABLE = new RegExp(String.raw`\b(?:FROM|INTO|UPDATE)\s+(${IDENTIFIER}(?:\.${IDENTIFIER})?)`, 'i');

const STRING_LITERAL = /'(?:[^']|'')*'/g;

export function sqlOperation(sql: string): SqlOperation {
  const name = VERB.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';
  // A literal may hold anything, "FROM <secret>" included: it is never read for a table.
  const table = TABLE.exec(sql.replace(STRING_LITERAL, "''"))?.[1];
  return table ? { name, collection: table.replaceAll('"', '') } : { name };
}

/** `db.<table>.<verb>` or `db.<verb>`: the operation part of the span name. */
export function sqlSpanOperation({ name, collection }: SqlOperation): string {
  const table = collection?.slice(collection.lastIndexOf('.') + 1);
  return table ? `db.${table}.${name.toLowerCase()}` : `db.${name.toLowerCase()}`;
}
