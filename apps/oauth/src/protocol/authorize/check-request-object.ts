import type { TokenParameters } from '../token/token-parameters.js';
import { RequestNotSupportedError, RequestUriNotSupportedError } from './authorization-errors.js';

/** OIDC Core 6 and 3.1.2.6: request objects are not supported, by value or by reference. */
export function checkRequestObject(values: TokenParameters): void {
  if (values.has('request')) {
    throw new RequestNotSupportedError({ message: 'The request parameter is not supported' });
  }
  if (values.has('request_uri')) {
    throw new RequestUriNotSupportedError({ message: 'The request_uri parameter is not supported' });
  }
}
