import { CLIENT_ASSERTION_TYPE } from '@authz/shared/protocol';
import { InvalidClientError } from '@authz/shared/errors';
import { decodeJwt } from 'jose';

/** What the endpoint received (interface.md 5); Basic is already Base64- and form-decoded. */
export interface PresentedCredentials {
  bodyClientId?: string;
  bodyClientSecret?: string;
  basic?: { clientId: string; clientSecret: string };
  /** RFC 7523 section 2.2, from the form body. */
  clientAssertionType?: string;
  clientAssertion?: string;
  /** The grant asked for: API keys count only for client_credentials (docs/decisions.md #15). */
  grantType: string;
  /** Introspection and revocation: client_secret_basic and client_secret_post only (interface.md 5). */
  sharedSecretOnly?: boolean;
}

/** The one authentication method a request used, and the client it names. */
export type Presented =
  | { method: 'client_secret_basic' | 'client_secret_post'; clientId: string; secret: string }
  | { method: 'none'; clientId: string }
  | { method: 'private_key_jwt'; clientId: string; assertion: string };

/**
 * RFC 6749 section 2.3: a client uses one authentication method per request. interface.md 5: the
 * Basic header wins over body credentials, and a body client_id naming another client fails.
 * Every refusal is the same bare invalid_client (docs/decisions.md #21).
 */
export function readPresentedCredentials(credentials: PresentedCredentials): Presented {
  const presented = presentedMethod(credentials);
  if (
    credentials.sharedSecretOnly &&
    presented.method !== 'client_secret_basic' &&
    presented.method !== 'client_secret_post'
  ) {
    throw rejected(`${presented.method} is not accepted here`);
  }
  return presented;
}

function presentedMethod(credentials: PresentedCredentials): Presented {
  const { basic, bodyClientId, bodyClientSecret } = credentials;
  // interface.md 5: the header wins; body credentials (secret or assertion) are then ignored.
  if (basic) {
    if (bodyClientId !== undefined && bodyClientId !== basic.clientId) throw rejected('client_id mismatch');
    return { method: 'client_secret_basic', clientId: basic.clientId, secret: basic.clientSecret };
  }
  if (credentials.clientAssertion !== undefined || credentials.clientAssertionType !== undefined) {
    return assertionCredentials(credentials);
  }
  if (!bodyClientId) throw rejected('no client_id');
  if (bodyClientSecret !== undefined) {
    return { method: 'client_secret_post', clientId: bodyClientId, secret: bodyClientSecret };
  }
  return { method: 'none', clientId: bodyClientId };
}

// RFC 7523 section 3 (iss = sub = client_id) and RFC 7521 section 4.2 (client_id optional,
// equal to the assertion's subject when sent). The signature is checked later, once the
// client and its keys are known; here the unverified sub only names the client to look up.
function assertionCredentials(credentials: PresentedCredentials): Presented {
  const { clientAssertion, clientAssertionType, bodyClientId, bodyClientSecret } = credentials;
  if (clientAssertionType !== CLIENT_ASSERTION_TYPE) throw rejected('unsupported client_assertion_type');
  if (!clientAssertion) throw rejected('client_assertion missing');
  // RFC 6749 section 2.3: one method per request.
  if (bodyClientSecret !== undefined) throw rejected('assertion combined with a secret');
  const subject = assertionSubject(clientAssertion);
  if (bodyClientId !== undefined && bodyClientId !== subject)
    throw rejected('client_id differs from the assertion');
  return { method: 'private_key_jwt', clientId: subject, assertion: clientAssertion };
}

function assertionSubject(assertion: string): string {
  let claims: ReturnType<typeof decodeJwt>;
  try {
    claims = decodeJwt(assertion);
  } catch {
    throw rejected('malformed client_assertion');
  }
  if (typeof claims.sub !== 'string' || claims.sub === '' || claims.iss !== claims.sub) {
    throw rejected('client_assertion iss and sub must both be the client_id');
  }
  return claims.sub;
}

export function rejected(detail: string): InvalidClientError {
  return new InvalidClientError({ detail });
}
