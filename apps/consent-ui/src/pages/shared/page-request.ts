import { ValidationError } from '@authz/shared/errors';
import type { RequestOrigin } from '../sign-in/identity-port.js';

/** A /ui/* request as the gateway passed it (consentui.proto RenderPageRequest). */
export interface PageRequest {
  method: string;
  /** Without the query, still percent-encoded. */
  path: string;
  query: RequestFields;
  form: RequestFields;
  cookies: Readonly<Record<string, string>>;
  origin: RequestOrigin;
}

/** The query or the form body, kept in order so a repeated name stays visible. */
export class RequestFields {
  constructor(private readonly fields: readonly { name: string; value: string }[]) {}

  /**
   * The value of `name`, undefined when absent. A name sent twice is refused rather than
   * guessed at (the same rule as RFC 6749 section 3.1 for the authorization endpoint).
   */
  get(name: string): string | undefined {
    const values = this.fields.filter((field) => field.name === name);
    if (values.length > 1) throw new ValidationError([{ path: name, message: 'must be sent once' }]);
    return values[0]?.value;
  }

  /** Every field, in order, form-encoded again (a callback handed on whole). */
  encoded(): string {
    return new URLSearchParams(
      this.fields.map(({ name, value }): [string, string] => [name, value]),
    ).toString();
  }
}
