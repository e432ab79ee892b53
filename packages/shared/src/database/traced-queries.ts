import type { PrismaPg } from '@prisma/adapter-pg';
import { endWith, startClientSpan, tracedServiceName } from '../telemetry/spans/index.js';
import { sqlOperation, sqlSpanOperation } from './sql-operation.js';

export type PgDriverAdapter = Awaited<ReturnType<PrismaPg['connect']>>;
type PgTransaction = Awaited<ReturnType<PgDriverAdapter['startTransaction']>>;
type SqlQuery = Parameters<PgDriverAdapter['queryRaw']>[0];
type Queryable = Pick<PgDriverAdapter, 'queryRaw' | 'executeRaw'>;

/**
 * Gives every statement Prisma sends through `adapter` (and its transactions) a CLIENT span,
 * `<service>.db.<table>.<verb>`, inside a traced call. Attributes name the statement's verb
 * and table only: never its text, whose literals or parameters may be secrets' hashes.
 */
export function traceQueries(adapter: PgDriverAdapter): PgDriverAdapter {
  traceQueryable(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) => traceQueryable(await startTransaction(isolationLevel));
  return adapter;
}

function traceQueryable<Q extends Queryable | PgTransaction>(queryable: Q): Q {
  const queryRaw = queryable.queryRaw.bind(queryable);
  const executeRaw = queryable.executeRaw.bind(queryable);
  // The statement is only parsed inside a traced call.
  queryable.queryRaw = (query) =>
    tracedServiceName() ? endWith(startQuerySpan(query), queryRaw(query)) : queryRaw(query);
  queryable.executeRaw = (query) =>
    tracedServiceName() ? endWith(startQuerySpan(query), executeRaw(query)) : executeRaw(query);
  return queryable;
}

function startQuerySpan(query: SqlQuery) {
  const operation = sqlOperation(query.sql);
  return startClientSpan(sqlSpanOperation(operation), {
    'db.system.name': 'postgresql',
    'db.operation.name': operation.name,
    ...(operation.collection ? { 'db.collection.name': operation.collection } : {}),
  });
}
