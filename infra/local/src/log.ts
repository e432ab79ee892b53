import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** Width of the `name |` column: the longest service name plus a suffix like ":migrate". */
const PREFIX_WIDTH = 21;
const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** pino fields that the prefix or the launcher's clock already say. */
const NOISE = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'service', 'name', 'err']);

export type LineSink = (source: string, line: string) => void;

/** Writes one line of one source, e.g. `oauth                 | INFO token issued`. */
export const say: LineSink = (source, line) => {
  process.stdout.write(`${source.padEnd(PREFIX_WIDTH)}| ${line}\n`);
};

/** Lines of a child's stream, each passed through `formatLogLine` to the sink. */
export function pipeLines(stream: Readable, source: string, sink: LineSink): void {
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  lines.on('line', (line) => {
    for (const formatted of formatLogLine(line)) sink(source, formatted);
  });
}

/**
 * pino JSON lines become `LEVEL message {fields}` with the error stack below, so the console of
 * seven processes stays readable; anything else passes unchanged.
 */
export function formatLogLine(line: string): string[] {
  if (!line.startsWith('{')) return [line];
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return [line];
  }
  // Numeric levels are pino's default; the services' shared logger writes labels ("info").
  const level =
    typeof record.level === 'number' ? (LEVELS[record.level] ?? String(record.level)) : record.level;
  if (typeof level !== 'string' || typeof record.msg !== 'string') return [line];
  const rest = Object.fromEntries(Object.entries(record).filter(([key]) => !NOISE.has(key)));
  const head = `${level.toUpperCase()} ${record.msg}${Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : ''}`;
  const stack = (record.err as { stack?: unknown } | undefined)?.stack;
  return typeof stack === 'string' ? [head, ...stack.split('\n').map((part) => `    ${part}`)] : [head];
}
