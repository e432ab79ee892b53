import { ROOT_CONTEXT, context } from '@opentelemetry/api';

/**
 * Runs `work` outside any trace. A timer armed while serving a request inherits that request's
 * context, so what it does later on behalf of every request (a batched write) would join the
 * trace of whichever request happened to arm it (docs/observability.md "Traces").
 */
export function outsideTraces<T>(work: () => T): T {
  return context.with(ROOT_CONTEXT, work);
}
