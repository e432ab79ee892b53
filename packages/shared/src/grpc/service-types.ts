import type { DescMethod, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import type { Logger } from 'pino';

type MethodsOf<S> = S extends GenService<infer M> ? M : never;

/** The local (lowerCamelCase) name of one of a service's methods: `token`, `introspect`. */
export type MethodName<S> = keyof MethodsOf<S> & string;
type Method = Pick<DescMethod, 'input' | 'output' | 'methodKind'>;

/** What a handler learns about the call besides its request message. */
export interface CallContext {
  requestId: string;
  /** Logger bound to the service, RPC and request id. */
  log: Logger;
  /** Aborted when the caller cancels or its deadline passes. */
  signal: AbortSignal;
}

type Handler<M extends Method> = (
  request: MessageShape<M['input']>,
  call: CallContext,
) => Promise<MessageInitShape<M['output']>>;

/** The server side of a protobuf-es service: one async function per unary RPC. */
export type ServiceImplementation<S extends GenService<GenServiceMethods>> = {
  [K in keyof MethodsOf<S>]: Handler<MethodsOf<S>[K]>;
};

export interface CallOptions {
  /** Per-call deadline; every call has one (the client's default otherwise). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

type ClientMethod<M extends Method> = (
  request: MessageInitShape<M['input']>,
  options?: CallOptions,
) => Promise<MessageShape<M['output']>>;

/** The client side: one promise-returning function per unary RPC. */
export type ServiceClient<S extends GenService<GenServiceMethods>> = {
  [K in keyof MethodsOf<S>]: ClientMethod<MethodsOf<S>[K]>;
};
