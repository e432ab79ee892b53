import { InvalidRequestError } from '@authz/shared/errors';

export interface RawParameter {
  name: string;
  value: string;
}

// RFC 8707 section 2 and RFC 8693 section 2.1: resource and audience may be sent more than once.
const REPEATABLE = new Set(['resource', 'audience']);

/** Token request parameters after the RFC 6749 section 3 rules; empty values dropped. */
export class TokenParameters {
  constructor(private readonly values: ReadonlyMap<string, readonly string[]>) {}

  get(name: string): string | undefined {
    return this.values.get(name)?.[0];
  }

  /** Every value of a repeatable parameter, in order. */
  getAll(name: string): readonly string[] {
    return this.values.get(name) ?? [];
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  /** Only the parameters a grant declared reach it (as node-oidc-provider does). */
  pick(declared: readonly string[]): TokenParameters {
    return new TokenParameters(new Map([...this.values].filter(([name]) => declared.includes(name))));
  }
}

/**
 * RFC 6749 section 3.2: parameters MUST NOT be sent more than once; section 3.1: parameters
 * sent without a value are treated as omitted.
 */
export function readTokenParameters(raw: readonly RawParameter[]): TokenParameters {
  const values = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const { name, value } of raw) {
    if (seen.has(name) && !REPEATABLE.has(name)) {
      throw new InvalidRequestError({ message: `Parameter ${name} was sent more than once` });
    }
    seen.add(name);
    if (value !== '') values.set(name, [...(values.get(name) ?? []), value]);
  }
  return new TokenParameters(values);
}
