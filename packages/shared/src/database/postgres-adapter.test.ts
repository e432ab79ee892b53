import { ROOT_CONTEXT, SpanKind, context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleValue, startMetricsServer, type MetricsServer } from '../metrics/index.js';
import { createServiceApp, databaseDependency } from '../service/create-service-app.js';
import type { ServiceApp } from '../service/service-app.js';
import { startTelemetry, type Telemetry } from '../telemetry/index.js';
import { serviceContext } from '../telemetry/spans/index.js';
import { testLogger } from '../testing/service-probe.js';
import { useTestEnvironment } from '../testing/test-environment.js';
import { createPrismaAdapter, type PostgresAdapter } from './index.js';
import type { PgDriverAdapter } from './traced-queries.js';

// The database's share of docs/observability.md: a span per statement inside traced work,
// and the pool's gauges on the service's metrics port.
const environment = useTestEnvironment();
const exporter = new InMemorySpanExporter();
let telemetry: Telemetry;
let adapter: PostgresAdapter;
let driver: PgDriverAdapter;
let app: ServiceApp;
let metricsServer: MetricsServer;

beforeAll(async () => {
  telemetry = startTelemetry('db-test', undefined, { spanProcessors: [new SimpleSpanProcessor(exporter)] });
  adapter = createPrismaAdapter(environment.databaseUrl, testLogger());
  driver = await adapter.connect();
  // What databaseDependency needs of a PrismaClient, on the same adapter.
  const prisma = {
    $queryRawUnsafe: (sql: string) => driver.queryRaw({ sql, args: [], argTypes: [] }),
    $disconnect: () => driver.dispose(),
  };
  app = await createServiceApp('probe', testLogger(), { database: databaseDependency(prisma, adapter) });
  metricsServer = await startMetricsServer(app.metrics, '127.0.0.1', 0);
});

afterAll(async () => {
  await metricsServer?.close();
  await app?.close();
  await telemetry?.shutdown();
});

beforeEach(() => exporter.reset());

const query = (sql: string, args: unknown[] = []) =>
  driver.queryRaw({
    sql,
    args,
    argTypes: args.map(() => ({ scalarType: 'string', arity: 'scalar' }) as never),
  });

/** Runs `work` as the service `probe` does while serving a traced call. */
async function asTracedCall<T>(work: () => Promise<T>): Promise<T> {
  const span = trace.getTracer('test').startSpan('probe.Call', { kind: SpanKind.SERVER }, ROOT_CONTEXT);
  try {
    return await context.with(serviceContext(ROOT_CONTEXT, 'probe', span), work);
  } finally {
    span.end();
  }
}

describe('SQL spans', () => {
  it('name each statement <service>.db.<table>.<verb>, under the call, without its text or values', async () => {
    await asTracedCall(async () => {
      await query('SELECT relname FROM "pg_catalog"."pg_class" WHERE relname = $1', ['s3cret-hash-value']);
      await query('SELECT 1');
    });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([
      'probe.db.pg_class.select',
      'probe.db.select',
      'probe.Call',
    ]);
    const [table, plain, call] = spans;
    expect(table!.kind).toBe(SpanKind.CLIENT);
    expect(table!.parentSpanContext?.spanId).toBe(call!.spanContext().spanId);
    expect(table!.attributes).toEqual({
      'db.system.name': 'postgresql',
      'db.operation.name': 'SELECT',
      'db.collection.name': 'pg_catalog.pg_class',
    });
    expect(plain!.attributes).toEqual({ 'db.system.name': 'postgresql', 'db.operation.name': 'SELECT' });
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain('s3cret');
  });

  it('cover statements inside transactions, and mark a failed one with its error name only', async () => {
    await asTracedCall(async () => {
      const transaction = await driver.startTransaction();
      await transaction.executeRaw({ sql: 'SELECT 1', args: [], argTypes: [] });
      await transaction
        .queryRaw({ sql: `SELECT * FROM "nowhere"."s3cret_table"`, args: [], argTypes: [] })
        .catch(() => undefined);
      await transaction.executeRaw({ sql: 'ROLLBACK', args: [], argTypes: [] });
      await transaction.rollback();
    });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([
      'probe.db.select',
      'probe.db.s3cret_table.select',
      'probe.db.rollback',
      'probe.Call',
    ]);
    expect(spans[1]!.status).toEqual({ code: 2, message: 'DriverAdapterError' });
  });

  it('are not made for work outside a traced call', async () => {
    await query('SELECT 1');
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

describe('pool gauges on the metrics port', () => {
  const scrape = async () => (await fetch(`http://127.0.0.1:${metricsServer.port}/metrics`)).text();

  it('show idle and busy connections, the maximum, and callers waiting for one', async () => {
    let exposition = await scrape();
    // The warm-up check left its connection idle.
    expect(sampleValue(exposition, 'db_pool_connections', { service: 'probe', state: 'idle' })).toBe(1);
    expect(sampleValue(exposition, 'db_pool_connections', { service: 'probe', state: 'in_use' })).toBe(0);
    expect(sampleValue(exposition, 'db_pool_max_connections', { service: 'probe' })).toBe(10);
    expect(sampleValue(exposition, 'db_pool_waiting_requests', { service: 'probe' })).toBe(0);

    // Each open transaction holds a connection; with all ten held, the next query waits.
    const transactions = await Promise.all(Array.from({ length: 10 }, () => driver.startTransaction()));
    const waiting = query('SELECT 1');
    await expect.poll(async () => sampleValue(await scrape(), 'db_pool_waiting_requests')).toBe(1);
    exposition = await scrape();
    expect(sampleValue(exposition, 'db_pool_connections', { state: 'in_use' })).toBe(10);
    expect(sampleValue(exposition, 'db_pool_connections', { state: 'idle' })).toBe(0);

    for (const transaction of transactions) {
      await transaction.executeRaw({ sql: 'ROLLBACK', args: [], argTypes: [] });
      await transaction.rollback();
    }
    await waiting;
    exposition = await scrape();
    expect(sampleValue(exposition, 'db_pool_waiting_requests')).toBe(0);
    expect(sampleValue(exposition, 'db_pool_connections', { state: 'in_use' })).toBe(0);
    expect(sampleValue(exposition, 'db_pool_connections', { state: 'idle' })).toBe(10);
  });
});
