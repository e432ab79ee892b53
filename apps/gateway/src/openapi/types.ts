/** A JSON Schema as the route files and the document write them. */
export type JsonSchema = Record<string, unknown>;

/** One tag per feature; the document lists them in this order (components.ts). */
export type Tag =
  'OAuth' | 'Discovery' | 'Accounts' | 'Developer API' | 'Consents' | 'Wallet' | 'Admin' | 'System';

/** Security requirement objects: any one of them satisfies the operation, `{}` meaning none. */
export type Security = Record<string, string[]>[];

export interface ResponseDoc {
  description: string;
  /**
   * Media type to schema, for a body the route does not declare itself. A status the route
   * declares a response schema for is documented with that schema (it is what the route sends).
   */
  content?: Record<string, JsonSchema>;
  /** Response headers by name, each a schema with a description. */
  headers?: Record<string, JsonSchema>;
}

/**
 * What the document says about one operation beyond the route's own schemas. The parts here
 * are documentation only: the route keeps validating and serialising with its own schemas.
 */
export interface OperationDoc {
  operationId: string;
  summary: string;
  description?: string;
  tag: Tag;
  security?: Security;
  /** Path parameters, when the route declares no params schema of its own. */
  params?: JsonSchema;
  /** Query parameters, when the route declares no querystring schema of its own. */
  querystring?: JsonSchema;
  /** Request headers, such as X-CSRF-Token. */
  headers?: JsonSchema;
  /** Request body by media type, when the route declares no body schema of its own. */
  body?: Record<string, JsonSchema>;
  /** The answers that are not errors, by status. */
  responses: Record<string, ResponseDoc>;
  /**
   * Error statuses with what they mean here, answered with the route's error body: the
   * OAuthError body on OAuth routes, the ApiError envelope elsewhere. 429 (when rate-limited)
   * and 5XX are added to every operation.
   */
  errors?: Record<string, string>;
}

/** Keyed by method and OpenAPI path, e.g. `GET /api/clients/{id}`. */
export type OperationDocs = Record<string, OperationDoc>;
