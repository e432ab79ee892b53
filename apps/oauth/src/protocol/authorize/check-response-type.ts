import { InvalidRequestError, UnsupportedResponseTypeError } from '@authz/shared/errors';
import type { TokenParameters } from '../token/token-parameters.js';

/**
 * RFC 6749 section 4.1.1 and interface.md 1.3: response_type is required and only `code` is
 * supported; OAuth 2.0 Multiple Response Types section 2.1: the only response_mode is `query`.
 */
export function checkResponseType(values: TokenParameters): void {
  const responseType = values.get('response_type');
  if (responseType === undefined) throw new InvalidRequestError({ message: 'response_type is required' });
  if (responseType !== 'code') {
    throw new UnsupportedResponseTypeError({ message: 'Only the code response type is supported' });
  }
  const responseMode = values.get('response_mode');
  if (responseMode !== undefined && responseMode !== 'query') {
    throw new InvalidRequestError({ message: 'Only the query response_mode is supported' });
  }
}
