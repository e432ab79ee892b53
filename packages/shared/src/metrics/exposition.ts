/**
 * The value of one sample of a Prometheus text exposition whose labels include `labels`
 * (whatever their order), or undefined when there is none. Used by tests and probes that read
 * a metrics port.
 */
export function sampleValue(
  exposition: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}
