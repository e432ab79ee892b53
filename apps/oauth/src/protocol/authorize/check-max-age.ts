import { InvalidRequestError } from '@authz/shared/errors';
import type { TokenParameters } from '../token/token-parameters.js';

const NON_NEGATIVE_INTEGER = /^\d{1,10}$/;

/** OIDC Core 3.1.2.1: max_age is a non-negative number of seconds. */
export function checkMaxAge(values: TokenParameters): number | undefined {
  const maxAge = values.get('max_age');
  if (maxAge === undefined) return undefined;
  if (!NON_NEGATIVE_INTEGER.test(maxAge)) {
    throw new InvalidRequestError({ message: 'max_age must be a non-negative integer' });
  }
  return Number(maxAge);
}
