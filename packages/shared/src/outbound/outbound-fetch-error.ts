export type OutboundFailureReason =
  'url' | 'address' | 'redirect' | 'status' | 'too_large' | 'timeout' | 'network' | 'content_type';

/**
 * Why a public document could not be fetched. The message names the rule that failed and never
 * quotes the response: the document comes from an untrusted party, and callers may log messages.
 */
export class OutboundFetchError extends Error {
  readonly reason: OutboundFailureReason;

  constructor(reason: OutboundFailureReason, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'OutboundFetchError';
    this.reason = reason;
  }
}
