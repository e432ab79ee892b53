import type { TextMapGetter, TextMapSetter } from '@opentelemetry/api';
import type { Metadata } from '@grpc/grpc-js';

/** Lets OpenTelemetry propagators read and write W3C trace context in gRPC metadata. */
export const metadataSetter: TextMapSetter<Metadata> = {
  set: (metadata, key, value) => metadata.set(key, value),
};

export const metadataGetter: TextMapGetter<Metadata> = {
  keys: (metadata) => Object.keys(metadata.getMap()),
  get: (metadata, key) => metadata.get(key).map(String),
};

export const REQUEST_ID_METADATA_KEY = 'x-request-id';
