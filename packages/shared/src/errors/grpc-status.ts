import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { ErrorDetailSchema } from '@authz/proto/errors/v1/errors';
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
  const detail = create(ErrorDetailSchema, {
    kind: error.kind,
    code: error.code,
    statusCode: error.statusCode,
    message: error.hasCustomMessage ? error.message : '',
    details: error.details ?? [],
    attributes: error.attributes,
  });
  const metadata = new Metadata();
  metadata.set(ERROR_DETAIL_METADATA_KEY, Buffer.from(toBinary(ErrorDetailSchema, detail)));
  return {
    code: STATUS_BY_HTTP[error.statusCode] ?? status.INTERNAL,
    details: error.code,
    metadata,
  };
}

/**
 * gRPC failure -> AppError (the one mapping back). A trailer rebuilds the thrown class;
 * without one, transport failures become 503/504 and anything else an internal error.
 */
export function fromGrpcError(error: ServiceError): AppError {
  const [raw] = error.metadata?.get(ERROR_DETAIL_METADATA_KEY) ?? [];
  if (raw instanceof Buffer) {
    const detail = fromBinary(ErrorDetailSchema, raw);
    const rebuilt = rebuildError(detail.kind, detail.code, {
      ...(detail.message ? { message: detail.message } : {}),
      ...(detail.details.length > 0
        ? { details: detail.details.map(({ path, message }) => ({ path, message })) }
        : {}),
      attributes: detail.attributes,
    });
    if (rebuilt) return rebuilt;
  }
  const cause = `${status[error.code] ?? error.code}: ${error.details}`;
  if (error.code === status.DEADLINE_EXCEEDED) return new UpstreamTimeoutError({ detail: cause });
  if (error.code === status.UNAVAILABLE) return new ServiceUnavailableError({ detail: cause });
  return new InternalError({ detail: cause });
}
