import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  BatchService,
  BatchedOutcomeSchema,
  CallResponseSchema,
  type BatchedCall,
  type BatchedOutcome,
  type CallRequest,
} from '@authz/proto/rpc/v1/batch';
import { ROOT_CONTEXT, defaultTextMapGetter, propagation } from '@opentelemetry/api';
import * as grpc from '@grpc/grpc-js';
import { sanitizeRequestId } from '../context/index.js';
import { errorDetailOf, grpcCodeOf } from '../errors/index.js';
import type { UnaryCallContext } from './call-context.js';
import { methodDefinition } from './method-definitions.js';
import type { MethodRunner } from './method-runner.js';

/**
 * Most calls one batch may hold. The caller's own limit is lower (call-batcher.ts); this one
 * only bounds what a faulty caller can make one gRPC call run at once.
 */
export const MAX_BATCHED_CALLS = 256;

/** `/authz.rpc.v1.BatchService/Call` as grpc-js registers it. */
export const batchCallDefinition = methodDefinition(BatchService, BatchService.method.call);

/**
 * The server side of BatchService.Call: each call of the batch runs through the runner of its
 * method exactly as a unary call of that method would (request id, trace context, span, log,
 * metric, error) and they run concurrently. The batch itself fails only when it names a method
 * this server does not serve (UNIMPLEMENTED, as the unary call would) or holds too many calls;
 * then none of its calls ran.
 */
export function batchCallHandler(
  runners: ReadonlyMap<string, MethodRunner>,
  observeBatchSize: ((calls: number) => void) | undefined,
): grpc.handleUnaryCall<unknown, unknown> {
  return (call, callback) => {
    const { method, calls } = call.request as CallRequest;
    const runner = runners.get(method);
    if (!runner) {
      callback({
        code: grpc.status.UNIMPLEMENTED,
        details: `The server does not implement the method ${method}`,
      });
      return;
    }
    if (calls.length > MAX_BATCHED_CALLS) {
      callback({
        code: grpc.status.INVALID_ARGUMENT,
        details: `More than ${MAX_BATCHED_CALLS} calls in one batch`,
      });
      return;
    }
    observeBatchSize?.(calls.length);
    const contexts = calls.map((batched) => runner.callContext(sanitizeRequestId(batched.requestId)));
    call.on('cancelled', () => {
      for (const callContext of contexts) callContext.cancel();
    });
    void Promise.all(calls.map((batched, index) => runBatched(runner, batched, contexts[index]!))).then(
      (outcomes) => callback(null, create(CallResponseSchema, { outcomes })),
    );
  };
}

async function runBatched(
  runner: MethodRunner,
  batched: BatchedCall,
  callContext: UnaryCallContext,
): Promise<BatchedOutcome> {
  let request: unknown;
  try {
    request = fromBinary(runner.method.input, batched.request);
  } catch (error) {
    // What grpc-js answers a unary call whose request does not decode.
    return failed(grpc.status.INTERNAL, `Error deserializing request: ${(error as Error).message}`);
  }
  const parent = propagation.extract(ROOT_CONTEXT, batched.traceContext, defaultTextMapGetter);
  const outcome = await runner.run(request, callContext, parent);
  if (outcome.ok) {
    return create(BatchedOutcomeSchema, {
      outcome: { case: 'response', value: toBinary(runner.method.output, outcome.response as never) },
    });
  }
  const { error } = outcome;
  return failed(grpcCodeOf(error), error.code, errorDetailOf(error));
}

function failed(
  code: grpc.status,
  details: string,
  error?: ReturnType<typeof errorDetailOf>,
): BatchedOutcome {
  return create(BatchedOutcomeSchema, {
    outcome: { case: 'status', value: { code, details, ...(error ? { error } : {}) } },
  });
}
