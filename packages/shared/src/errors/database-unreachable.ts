/**
 * Failures that mean "the database could not be reached", as opposed to "the statement was
 * wrong": the pg driver's socket and pool errors, the SQLSTATEs of a server refusing or
 * dropping connections, and the Prisma codes its driver adapter turns them into. They become
 * 503 (ServiceUnavailableError) instead of 500, so clients see a retryable outage.
 */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** SQLSTATE 57P01-03 (shutting down, starting up) and 53300 (too many connections). */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Prisma: P1001 unreachable, P1002 timed out, P1017 connection closed, P2024 pool timeout, P2037 too many connections. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);
/** Driver-adapter error kinds (@prisma/driver-adapter-utils) meaning the same. */
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);
/** pg and pg-pool raise these as plain Errors, without a code. */
const DRIVER_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
];

export function isDatabaseUnreachable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  if (
    error instanceof AggregateError &&
    error.errors.some((inner) => isDatabaseUnreachable(inner, depth + 1))
  )
    return true;
  const { code, message, cause, meta } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    meta?: { driverAdapterError?: unknown };
  };
  if (
    typeof code === 'string' &&
    (SOCKET_CODES.has(code) || PRISMA_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08'))
  )
    return true;
  const kind = (cause as { kind?: unknown } | undefined)?.kind;
  if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
  if (typeof message === 'string' && DRIVER_MESSAGES.some((text) => message.includes(text))) return true;
  // Prisma keeps the adapter's error in meta (raw queries: P2010 wrapping it).
  return (
    isDatabaseUnreachable(cause, depth + 1) || isDatabaseUnreachable(meta?.driverAdapterError, depth + 1)
  );
}
