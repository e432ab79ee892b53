import { create } from '@bufbuild/protobuf';
import { CallRequestSchema, type BatchedOutcome, type CallResponse } from '@authz/proto/rpc/v1/batch';
import * as grpc from '@grpc/grpc-js';
import { fromGrpcStatus } from '../errors/index.js';
import { batchCallDefinition } from './batch-service.js';
import { REQUEST_ID_METADATA_KEY } from './metadata-carrier.js';
import { serviceError, unaryCall, type UnaryCallDefinition } from './unary-call.js';

/** Most calls one batch holds; a full batch leaves at once instead of at the turn's end. */
export const BATCH_MAX_CALLS = 32;
/** Request bytes after which a batch leaves at once, far below grpc-js's 4 MiB receive limit. */
const BATCH_MAX_BYTES = 256 * 1024;
/** A request this large always goes alone, so a batch's size stays bounded. */
const SOLO_REQUEST_BYTES = 64 * 1024;
/**
 * A server without BatchService (a release before it, during a rolling upgrade) answers
 * UNIMPLEMENTED having run nothing; calls then go alone for this long before batching again.
 */
const UNBATCHED_AFTER_UNIMPLEMENTED_MS = 30_000;

interface QueuedCall {
  bytes: Buffer;
  metadata: grpc.Metadata;
  deadline: number;
  signal: AbortSignal | undefined;
  resolve: (response: unknown) => void;
  reject: (error: unknown) => void;
  settled: boolean;
}

/** The batch call ended with a status instead of a response. */
class BatchFailure extends Error {
  constructor(readonly status: grpc.StatusObject) {
    super(status.details);
  }
}

/**
 * Coalesces the unary calls of one method made within one event-loop turn into one
 * BatchService.Call (batch-service.ts), so a burst of HTTP requests pays grpc-js's and
 * HTTP/2's per-call cost once (docs/performance.md #11). A caller sees a unary call: the same
 * response, the same AppError, its own request id and trace context, its own cancellation.
 *
 * A call alone in its turn is sent as the plain unary call, so light traffic is unchanged. A
 * batch is one gRPC call: it goes to one replica (round-robin spreads the batches), has the
 * earliest deadline of its calls, and is retried by grpc-js only when it never left this
 * process (docs/decisions.md #27), exactly as each of its calls would have been. If it fails, every
 * call in it fails with that status, as a unary call failing the same way would.
 */
export class CallBatcher {
  private queue: QueuedCall[] = [];
  private queuedBytes = 0;
  private flushScheduled = false;
  private unbatchedUntil = 0;
  /** The method's definition for requests serialized once, when they were queued. */
  private readonly serialized: UnaryCallDefinition;

  constructor(
    private readonly channel: grpc.Channel,
    private readonly definition: UnaryCallDefinition,
  ) {
    this.serialized = { ...definition, requestSerialize: (bytes) => bytes as Buffer };
  }

  call(request: unknown, metadata: grpc.Metadata, deadline: number, signal?: AbortSignal): Promise<unknown> {
    let bytes: Buffer;
    try {
      bytes = this.definition.requestSerialize(request);
    } catch {
      // The unary call fails it the way a caller expects (INTERNAL, serialization failure).
      return unaryCall(this.channel, this.definition, request, metadata, deadline, signal);
    }
    if (bytes.length > SOLO_REQUEST_BYTES || signal?.aborted || Date.now() < this.unbatchedUntil) {
      return unaryCall(this.channel, this.serialized, bytes, metadata, deadline, signal);
    }
    return new Promise((resolve, reject) => {
      const queued: QueuedCall = { bytes, metadata, deadline, signal, resolve, reject, settled: false };
      this.queue.push(queued);
      this.queuedBytes += bytes.length;
      signal?.addEventListener('abort', () => fail(queued, cancelledOnClient()), { once: true });
      if (this.queue.length >= BATCH_MAX_CALLS || this.queuedBytes >= BATCH_MAX_BYTES) {
        this.flush();
      } else if (!this.flushScheduled) {
        this.flushScheduled = true;
        // After the I/O callbacks of this turn: every request parsed in it has queued by then.
        setImmediate(() => {
          this.flushScheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    const calls = this.queue.filter((queued) => !queued.settled);
    this.queue = [];
    this.queuedBytes = 0;
    if (calls.length === 1) this.sendAlone(calls[0]!);
    else if (calls.length > 1) this.sendBatch(calls);
  }

  private sendAlone(queued: QueuedCall): void {
    unaryCall(
      this.channel,
      this.serialized,
      queued.bytes,
      queued.metadata,
      queued.deadline,
      queued.signal,
    ).then(
      (response) => succeed(queued, response),
      (error: unknown) => fail(queued, error),
    );
  }

  private sendBatch(calls: QueuedCall[]): void {
    const request = create(CallRequestSchema, {
      method: this.definition.path,
      calls: calls.map(({ bytes, metadata }) => ({
        requestId: String(metadata.get(REQUEST_ID_METADATA_KEY)[0] ?? ''),
        traceContext: traceContextOf(metadata),
        request: bytes,
      })),
    });
    const deadline = Math.min(...calls.map((queued) => queued.deadline));
    unaryCall(
      this.channel,
      batchCallDefinition,
      request,
      new grpc.Metadata(),
      deadline,
      undefined,
      (status) => new BatchFailure(status),
    ).then(
      (response) => this.answer(calls, response as CallResponse),
      (error: unknown) => {
        if (error instanceof BatchFailure && error.status.code === grpc.status.UNIMPLEMENTED) {
          this.unbatchedUntil = Date.now() + UNBATCHED_AFTER_UNIMPLEMENTED_MS;
          for (const queued of calls) if (!queued.settled) this.sendAlone(queued);
          return;
        }
        const failure = error instanceof BatchFailure ? serviceError(error.status) : error;
        for (const queued of calls) fail(queued, failure);
      },
    );
  }

  private answer(calls: QueuedCall[], { outcomes }: CallResponse): void {
    if (outcomes.length !== calls.length) {
      const failure = internal(`Batch answered ${outcomes.length} of ${calls.length} calls`);
      for (const queued of calls) fail(queued, failure);
      return;
    }
    calls.forEach((queued, index) => this.settleWith(queued, outcomes[index]!));
  }

  private settleWith(queued: QueuedCall, { outcome }: BatchedOutcome): void {
    if (outcome.case === 'status') {
      const { code, details, error } = outcome.value;
      fail(queued, fromGrpcStatus(code, details, error));
    } else if (outcome.case === 'response') {
      try {
        succeed(queued, this.definition.responseDeserialize(outcome.value as Buffer));
      } catch (error) {
        fail(queued, internal(`Response message parsing error: ${(error as Error).message}`));
      }
    } else {
      fail(queued, internal('No outcome received'));
    }
  }
}

function succeed(queued: QueuedCall, response: unknown): void {
  if (queued.settled) return;
  queued.settled = true;
  queued.resolve(response);
}

function fail(queued: QueuedCall, error: unknown): void {
  if (queued.settled) return;
  queued.settled = true;
  queued.reject(error);
}

/** The W3C trace context a unary call would carry in its metadata (all but the request id). */
function traceContextOf(metadata: grpc.Metadata): Record<string, string> {
  const carried: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata.getMap())) {
    if (key !== REQUEST_ID_METADATA_KEY && typeof value === 'string') carried[key] = value;
  }
  return carried;
}

function internal(details: string): Error {
  return serviceError({ code: grpc.status.INTERNAL, details, metadata: new grpc.Metadata() });
}

/** What a unary call cancelled by its caller rejects with (unary-call.ts). */
function cancelledOnClient(): Error {
  return serviceError({
    code: grpc.status.CANCELLED,
    details: 'Cancelled on client',
    metadata: new grpc.Metadata(),
  });
}
