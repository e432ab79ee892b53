import type { DescMethod, DescService } from '@bufbuild/protobuf';
import type { Attributes } from '@opentelemetry/api';

/** `TokenService/Token`: the operation part of a gRPC span name, on both sides of the call. */
export function rpcOperation(service: DescService, method: DescMethod): string {
  return `${service.name}/${method.name}`;
}

/** OpenTelemetry's RPC attributes of a method (semantic conventions, rpc.*). */
export function rpcAttributes(service: DescService, method: DescMethod): Attributes {
  return { 'rpc.system': 'grpc', 'rpc.service': service.typeName, 'rpc.method': method.name };
}
