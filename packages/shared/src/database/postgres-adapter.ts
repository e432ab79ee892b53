import { PrismaPg } from '@prisma/adapter-pg';
import { traceQueries, type PgDriverAdapter } from './traced-queries.js';

// The node-postgres types the adapter itself was built with.
type Pool = ReturnType<PgDriverAdapter['underlyingDriver']>;
type PoolConfig = Exclude<ConstructorParameters<typeof PrismaPg>[0], Pool | string>;

/** The pool's counts at one moment (node-postgres's own counters). */
export interface PoolStatistics {
  /** Connections open, idle or in use. */
  total: number;
  idle: number;
  /** Callers waiting for a connection because all `max` are in use. */
  waiting: number;
  max: number;
}

/**
 * Prisma's pg driver adapter with a span per statement (traced-queries.ts) and its pool's
 * counts for the service's metrics (pool-metrics.ts).
 */
export class PostgresAdapter extends PrismaPg {
  private pool: Pool | undefined;

  constructor(
    private readonly poolConfig: PoolConfig & { max: number },
    options: ConstructorParameters<typeof PrismaPg>[1],
  ) {
    super(poolConfig, options);
  }

  override async connect(): Promise<PgDriverAdapter> {
    const adapter = await super.connect();
    this.pool = adapter.underlyingDriver();
    return traceQueries(adapter);
  }

  /** Zero until Prisma first connects (it does so on the first query). */
  poolStatistics(): PoolStatistics {
    const { pool } = this;
    return {
      total: pool?.totalCount ?? 0,
      idle: pool?.idleCount ?? 0,
      waiting: pool?.waitingCount ?? 0,
      max: this.poolConfig.max,
    };
  }
}
