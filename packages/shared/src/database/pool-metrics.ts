import { Gauge, type Registry } from 'prom-client';
import type { PoolStatistics } from './postgres-adapter.js';

/**
 * The database pool, read at each scrape: `db_pool_connections{state}` (idle | in_use),
 * `db_pool_max_connections` and `db_pool_waiting_requests`, callers queued for a connection
 * (above zero for long means the pool is too small or the database too slow).
 */
export function registerPoolMetrics(registry: Registry, read: () => PoolStatistics): void {
  new Gauge({
    name: 'db_pool_connections',
    help: 'Open database connections of the pool by state (idle, in_use)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const { total, idle } = read();
      this.set({ state: 'idle' }, idle);
      this.set({ state: 'in_use' }, total - idle);
    },
  });
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'Most connections the database pool opens',
    registers: [registry],
    collect() {
      this.set(read().max);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Queries waiting for a free database connection',
    registers: [registry],
    collect() {
      this.set(read().waiting);
    },
  });
}
