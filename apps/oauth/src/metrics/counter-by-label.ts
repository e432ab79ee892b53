import { Counter, type Registry } from 'prom-client';

/**
 * A counter with one label whose values are a fixed set, each series exported from the start at
 * zero, so a rate or a ratio over them exists before the first event (docs/observability.md).
 */
export function counterByLabel<Label extends string>(
  registry: Registry,
  metric: { name: string; help: string; label: Label; values: readonly string[] },
): Counter<Label> {
  const counter = new Counter({
    name: metric.name,
    help: metric.help,
    labelNames: [metric.label],
    registers: [registry],
  });
  for (const value of metric.values) counter.labels(value).inc(0);
  return counter;
}
