import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';
import { cpuSnapshot, cpuUse, type CpuUse } from './cpu-usage.js';

export interface LoadTarget {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Headers that differ on every request (a DPoP proof), and what to learn from each answer. */
  perRequest?: {
    headers(): Record<string, string>;
    onResponseHeaders?(headers: Record<string, string | string[] | undefined>): void;
  };
}

export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  /** Requests per second in all (BENCH_RATE); unset, as many as get answered. */
  rate?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Milliseconds, as autocannon records them (1 ms resolution). */
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  /** Of those, 429s: the suite runs with its shipped rate limits on (docs/security.md #11). */
  rateLimited: number;
  /** Connection errors and timeouts (autocannon counts a timeout as an error). */
  errors: number;
  /** Cores used meanwhile by the load generator, the servers and everything else (Linux only). */
  cpu?: CpuUse;
  /** The measured window on the monotonic clock V8 profiles use (microseconds). */
  window: { startMicros: number; endMicros: number };
}

/**
 * One autocannon run (keep-alive connections, no pipelining). Aborting stops it at once; the
 * figures gathered so far are returned.
 */
export function runLoad(
  target: LoadTarget,
  settings: LoadSettings,
  signal: AbortSignal,
): Promise<LoadResult> {
  signal.throwIfAborted();
  const startMicros = monotonicMicros();
  const before = cpuSnapshot();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: target.method,
        headers: target.headers ?? {},
        ...(target.body === undefined ? {} : { body: target.body }),
        ...(target.perRequest ? { requests: [perRequestSetup(target.perRequest)] } : {}),
        connections: settings.connections,
        ...(settings.rate === undefined ? {} : { overallRate: settings.rate }),
        duration: settings.durationSeconds,
        pipelining: 1,
        timeout: 10,
      },
      (error: unknown, result: autocannon.Result) => {
        const cpu = cpuUse(before, cpuSnapshot(), availableParallelism());
        signal.removeEventListener('abort', stop);
        if (error) return reject(error instanceof Error ? error : new Error(String(error)));
        resolve({
          requestsPerSecond: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          total: result.requests.total,
          non2xx: result.non2xx,
          rateLimited: result.statusCodeStats?.['429']?.count ?? 0,
          errors: result.errors,
          ...(cpu ? { cpu } : {}),
          window: { startMicros, endMicros: monotonicMicros() },
        });
      },
    );
    const stop = () => instance.stop();
    signal.addEventListener('abort', stop, { once: true });
  });
}

// autocannon builds each request synchronously in setupRequest and reports each answer.
function perRequestSetup(perRequest: NonNullable<LoadTarget['perRequest']>): autocannon.Request {
  return {
    setupRequest: (request) => ({ ...request, headers: { ...request.headers, ...perRequest.headers() } }),
    onResponse: (_status, _body, _context, headers) =>
      perRequest.onResponseHeaders?.((headers ?? {}) as Record<string, string | string[] | undefined>),
  };
}

export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}
