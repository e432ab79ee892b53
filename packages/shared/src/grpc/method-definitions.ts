import { fromBinary, toBinary, type DescMethod, type DescService } from '@bufbuild/protobuf';
import type { MethodDefinition } from '@grpc/grpc-js';

/** grpc-js method paths follow the gRPC HTTP/2 protocol: /<package>.<Service>/<Method>. */
export function methodPath(service: DescService, method: DescMethod): string {
  return `/${service.typeName}/${method.name}`;
}

/** Binary protobuf (de)serialisation of one unary method for grpc-js. */
export function methodDefinition(
  service: DescService,
  method: DescMethod,
): MethodDefinition<unknown, unknown> {
  if (method.methodKind !== 'unary') {
    throw new Error(`${service.typeName}.${method.name}: only unary RPCs are supported`);
  }
  return {
    path: methodPath(service, method),
    requestStream: false,
    responseStream: false,
    requestSerialize: (message) => asBuffer(toBinary(method.input, message as never)),
    requestDeserialize: (bytes: Buffer) => fromBinary(method.input, bytes),
    responseSerialize: (message) => asBuffer(toBinary(method.output, message as never)),
    responseDeserialize: (bytes: Buffer) => fromBinary(method.output, bytes),
  };
}

/** grpc-js wants a Buffer: a view of the encoded bytes, not a copy of them. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
