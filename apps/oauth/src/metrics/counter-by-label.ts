import { Counter, type Registry } from 'prom-client';

/** Counts events by one label whose values are a fixed set. */
export interface CountsByLabel<Value extends string> {
  count(value: Value): void;
}

/**
 * A counter with one label whose values are a fixed set, each series exported from the start at
 * zero, so a rate or a ratio over them exists before the first event (docs/observability.md).
 * Each series is looked up once here: the client and profile caches count on every token and
 * UserInfo request, and prom-client's `labels()` hashes its arguments on every call.
 */
export function counterByLabel<Value extends string>(
  registry: Registry,
  metric: { name: string; help: string; label: string; values: readonly Value[] },
): CountsByLabel<Value> {
  const counter = new Counter({
    name: metric.name,
    help: metric.help,
    labelNames: [metric.label],
    registers: [registry],
  });
  const series = new Map(metric.values.map((value) => [value, counter.labels(value)]));
  for (const child of series.values()) child.inc(0);
  return {
    count(value) {
      const child = series.get(value);
      if (child) child.inc();
      else counter.labels(value).inc();
    },
  };
}
