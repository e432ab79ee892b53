import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { ErrorDetailSchema, type ErrorDetail } from '@authz/proto/errors/v1/errors';
import { Metadata, status, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { InternalError, ServiceUnavailableError, UpstreamTimeoutError } from './api-errors.js';
import type { AppError } from './app-error.js';
import { rebuildError } from './registry.js';

/** Trailer that carries the serialized ErrorDetail (packages/proto errors.proto). */
export const ERROR_DETAIL_METADATA_KEY = 'authz-error-bin';

const STATUS_BY_HTTP: Record<number, status> = {
  400: status.INVALID_ARGUMENT,
  401: status.UNAUTHENTICATED,
  403: status.PERMISSION_DENIED,
  404: status.NOT_FOUND,
  409: status.ALREADY_EXISTS,
  413: status.INVALID_ARGUMENT,
  415: status.INVALID_ARGUMENT,
  429: status.RESOURCE_EXHAUSTED,
  503: status.UNAVAILABLE,
  504: status.DEADLINE_EXCEEDED,
};

/** AppError -> gRPC status with the full error in a binary trailer (the one mapping out). */
export function toGrpcStatus(error: AppError): Partial<StatusObject> {
  const metadata = new Metadata();
  metadata.set(ERROR_DETAIL_METADATA_KEY, Buffer.from(toBinary(ErrorDetailSchema, errorDetailOf(error))));
  return { code: grpcCodeOf(error), details: error.code, metadata };
}

/** The gRPC status code a failed call with this error ends with. */
export function grpcCodeOf(error: AppError): status {
  return STATUS_BY_HTTP[error.statusCode] ?? status.INTERNAL;
}

/** What the `authz-error-bin` trailer (or a batched call's status) says about an error. */
export function errorDetailOf(error: AppError): ErrorDetail {
  return create(ErrorDetailSchema, {
    kind: error.kind,
    code: error.code,
    statusCode: error.statusCode,
    message: error.hasCustomMessage ? error.message : '',
    details: error.details ?? [],
    attributes: error.attributes,
  });
}

/**
 * gRPC failure -> AppError (the one mapping back). A trailer rebuilds the thrown class;
 * without one, transport failures become 503/504 and anything else an internal error.
 */
export function fromGrpcError(error: ServiceError): AppError {
  const [raw] = error.metadata?.get(ERROR_DETAIL_METADATA_KEY) ?? [];
  const detail = raw instanceof Buffer ? fromBinary(ErrorDetailSchema, raw) : undefined;
  return fromGrpcStatus(error.code, error.details, detail);
}

/** The same mapping from a status code, its details and the error detail when one came. */
export function fromGrpcStatus(code: status, details: string, detail: ErrorDetail | undefined): AppError {
  if (detail) {
    const rebuilt = rebuildError(
      detail.kind,
      detail.code,
      {
        ...(detail.message ? { message: detail.message } : {}),
        ...(detail.details.length > 0
          ? { details: detail.details.map(({ path, message }) => ({ path, message })) }
          : {}),
        attributes: detail.attributes,
      },
      detail.statusCode,
    );
    if (rebuilt) return rebuilt;
  }
  const cause = `${status[code] ?? code}: ${details}`;
  if (code === status.DEADLINE_EXCEEDED) return new UpstreamTimeoutError({ detail: cause });
  if (code === status.UNAVAILABLE) return new ServiceUnavailableError({ detail: cause });
  return new InternalError({ detail: cause });
}
