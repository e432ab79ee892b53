/**
 * The one error model of the suite (docs/conventions.md #5). Every failure a caller may see is an
 * AppError: a public message that is safe to show, a machine code, an HTTP status, and a
 * private `detail` that only reaches the logs. Anything else becomes InternalError.
 */
export interface FieldViolation {
  /** JSON pointer-like path of the rejected field, e.g. "email" or "redirectUris.0". */
  path: string;
  message: string;
}

export interface ErrorInit {
  /** Public message (API) or error_description (OAuth); the class default when absent. */
  message?: string;
  /** Private diagnostic for logs; never sent to a client. */
  detail?: string;
  /** Per-field validation problems (API validation errors only). */
  details?: FieldViolation[];
  /** Extra public attributes carried across gRPC, e.g. retryAfterSeconds. */
  attributes?: Record<string, string>;
  cause?: unknown;
}

export type ErrorKind = 'api' | 'oauth';

export abstract class AppError extends Error {
  abstract readonly kind: ErrorKind;
  /** Upper-case machine code (API) or the RFC 6749 error token (OAuth). */
  abstract readonly code: string;
  abstract readonly statusCode: number;
  readonly detail: string | undefined;
  readonly details: FieldViolation[] | undefined;
  readonly attributes: Record<string, string>;
  /** True when the caller supplied the public message (OAuth: send error_description). */
  readonly hasCustomMessage: boolean;

  protected constructor(defaultMessage: string, init: ErrorInit = {}) {
    super(init.message ?? defaultMessage, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.detail = init.detail;
    this.details = init.details;
    this.attributes = init.attributes ?? {};
    this.hasCustomMessage = init.message !== undefined;
  }

  /**
   * Whole seconds from the `retryAfterSeconds` attribute, rounded up, for a Retry-After header
   * (RFC 9110 section 10.2.3) on a 429 or 503; undefined when absent or not positive.
   */
  get retryAfterSeconds(): number | undefined {
    const value = Number(this.attributes.retryAfterSeconds);
    return Number.isFinite(value) && value > 0 ? Math.ceil(value) : undefined;
  }

  /** The ErrorInit that rebuilds an equal error on the far side of a gRPC call. */
  toInit(): ErrorInit {
    return {
      ...(this.hasCustomMessage ? { message: this.message } : {}),
      ...(this.details ? { details: this.details } : {}),
      attributes: this.attributes,
    };
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
