import {
  InvalidClientMetadataError,
  InvalidRedirectUriError,
  type FieldViolation,
} from '@authz/shared/errors';

// Validation speaks the developer API's field names; RFC 7591 metadata uses these.
const METADATA_NAMES: Record<string, string> = {
  name: 'client_name',
  redirectUris: 'redirect_uris',
  grantTypes: 'grant_types',
  responseTypes: 'response_types',
  tokenEndpointAuthMethod: 'token_endpoint_auth_method',
  jwks: 'jwks',
  jwksUri: 'jwks_uri',
  postLogoutRedirectUris: 'post_logout_redirect_uris',
  backchannelLogoutUri: 'backchannel_logout_uri',
  idTokenSignedResponseAlg: 'id_token_signed_response_alg',
};

/** RFC 7591 section 3.2.2: redirect URI problems first, else every metadata problem. */
export function toRegistrationError(details: readonly FieldViolation[]): Error {
  const redirects = details.filter(({ path }) => path.startsWith('redirectUris'));
  if (redirects.length > 0) return new InvalidRedirectUriError({ message: describeProblems(redirects) });
  return new InvalidClientMetadataError({ message: describeProblems(details) });
}

/** `redirect_uris[0]: must be ...; grant_types: ...`, in metadata names. */
export function describeProblems(details: readonly FieldViolation[]): string {
  return details.map(({ path, message }) => `${metadataName(path)}: ${renameFields(message)}`).join('; ');
}

function metadataName(path: string): string {
  const [field = path, index] = path.split('.');
  const name = METADATA_NAMES[field] ?? field;
  return index === undefined ? name : `${name}[${index}]`;
}

function renameFields(message: string): string {
  return message.replace(
    /tokenEndpointAuthMethod|jwksUri|backchannelLogoutUri/g,
    (field) => METADATA_NAMES[field] ?? field,
  );
}
