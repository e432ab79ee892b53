import { InvalidRequestError } from '@authz/shared/errors';
import type { AuthorizationParameters } from './authorization-parameters.js';

/** RFC 6749 section 3.1: request parameters MUST NOT be included more than once. */
export function checkDuplicatedParameters({ duplicated }: AuthorizationParameters): void {
  const [first] = duplicated;
  if (first !== undefined) throw new InvalidRequestError({ message: `${first} was sent more than once` });
}
