import { InvalidRequestError } from '@authz/shared/errors';
import type { TokenParameters } from '../token/token-parameters.js';
import { ACCESS_TOKEN_TYPE, ID_JAG_TOKEN_TYPE, type RequestedToken } from './token-types.js';

/**
 * RFC 8693 section 2.1 and interface.md 4.3: subject_token with its type is required; actor_token_type
 * comes with actor_token and only with it. Both types must be the access_token type, and the
 * requested type is the access_token type (also when absent) or, while ENTERPRISE_ASSERTION
 * is on, the ID-JAG type. Anything else is invalid_request (docs/decisions.md #12).
 */
export function checkTokenTypes(parameters: TokenParameters, idJagEnabled: boolean): RequestedToken {
  if (!parameters.has('subject_token')) throw refuse('subject_token is required');
  checkAccessTokenType(parameters.get('subject_token_type'), 'subject_token_type');
  if (parameters.has('actor_token')) {
    checkAccessTokenType(parameters.get('actor_token_type'), 'actor_token_type');
  } else if (parameters.has('actor_token_type')) {
    throw refuse('actor_token_type is sent only with actor_token');
  }
  return requestedToken(parameters.get('requested_token_type'), idJagEnabled);
}

function checkAccessTokenType(type: string | undefined, name: string): void {
  if (type === undefined) throw refuse(`${name} is required`);
  if (type !== ACCESS_TOKEN_TYPE) throw refuse(`${name} must be ${ACCESS_TOKEN_TYPE}`);
}

function requestedToken(type: string | undefined, idJagEnabled: boolean): RequestedToken {
  if (type === undefined || type === ACCESS_TOKEN_TYPE) return 'access_token';
  if (type === ID_JAG_TOKEN_TYPE && idJagEnabled) return 'id_jag';
  throw refuse('requested_token_type is not supported');
}

function refuse(message: string): InvalidRequestError {
  return new InvalidRequestError({ message });
}
