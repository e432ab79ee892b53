import * as grpc from '@grpc/grpc-js';
import { fromGrpcError } from '../errors/index.js';

type ChannelCall = ReturnType<grpc.Channel['createCall']>;

export interface UnaryCallDefinition {
  path: string;
  requestSerialize: (message: unknown) => Buffer;
  responseDeserialize: (bytes: Buffer) => unknown;
}

/**
 * One unary call on a grpc-js channel, with the semantics of `Client.makeUnaryRequest` (the
 * same statuses for a missing, extra or unreadable response, the same cancellation) minus
 * what this adapter never uses: an EventEmitter per call, interceptor plumbing and an Error
 * captured on every call for its stack (docs/performance.md #1). The channel still resolves,
 * balances, applies the deadline and retries transparently as before. Failures reject with
 * the AppError the service threw (errors/grpc-status.ts), or, for a status the server ended
 * the call with before any response, with what `failure` makes of it. Statuses this function
 * makes up itself (no response, too many, unreadable) are never handed to `failure`: the
 * server answered those calls, so a caller must not take them for a method it lacks.
 */
export function unaryCall(
  channel: grpc.Channel,
  definition: UnaryCallDefinition,
  request: unknown,
  metadata: grpc.Metadata,
  deadline: number,
  signal: AbortSignal | undefined,
  failure: (status: grpc.StatusObject) => Error = serviceError,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const call: ChannelCall = channel.createCall(definition.path, deadline, undefined, null, undefined);
    let response: { message: unknown } | undefined;
    let readError: grpc.StatusObject | undefined;
    let settled = false;
    call.start(metadata, {
      onReceiveMetadata: () => undefined,
      onReceiveMessage: (bytes: Buffer) => {
        if (response) {
          call.cancelWithStatus(grpc.status.UNIMPLEMENTED, 'Too many responses received');
          return;
        }
        try {
          response = { message: definition.responseDeserialize(bytes) };
        } catch (error) {
          readError = {
            code: grpc.status.INTERNAL,
            details: `Response message parsing error: ${(error as Error).message}`,
            metadata: new grpc.Metadata(),
          };
          call.cancelWithStatus(readError.code, readError.details);
        }
      },
      onReceiveStatus: (received: grpc.StatusObject) => {
        if (settled) return;
        settled = true;
        const status = readError ?? received;
        if (status.code !== grpc.status.OK) {
          return reject(response || readError ? serviceError(status) : failure(status));
        }
        if (!response) {
          return reject(
            serviceError({
              code: grpc.status.UNIMPLEMENTED,
              details: 'No message received',
              metadata: status.metadata,
            }),
          );
        }
        resolve(response.message);
      },
    });
    call.startRead();
    let bytes: Buffer;
    try {
      bytes = definition.requestSerialize(request);
    } catch (error) {
      call.cancelWithStatus(
        grpc.status.INTERNAL,
        `Request message serialization failure: ${(error as Error).message}`,
      );
      return;
    }
    call.sendMessageWithContext({}, bytes);
    call.halfClose();
    signal?.addEventListener(
      'abort',
      () => call.cancelWithStatus(grpc.status.CANCELLED, 'Cancelled on client'),
      { once: true },
    );
  });
}

/**
 * The error grpc-js hands a unary callback (the status on an Error of the same message),
 * rebuilt as the AppError the service threw.
 */
export function serviceError(status: grpc.StatusObject): Error {
  return fromGrpcError(
    Object.assign(new Error(`${status.code} ${grpc.status[status.code]}: ${status.details}`), status),
  );
}
