import type { OperationDocs } from '../types.js';

const cacheable = 'Public and cacheable: `Cache-Control: public, max-age=3600`; CORS for any origin.';
const metadata = (what: string) => ({
  200: {
    description: `${what} ${cacheable}`,
    content: { 'application/json': { type: 'object', additionalProperties: true } },
  },
});

export const discoveryOperations: OperationDocs = {
  'GET /.well-known/jwks.json': {
    operationId: 'jwks',
    summary: 'Signing keys (JWKS)',
    description:
      'The public Ed25519 keys that sign tokens (RFC 7517), the next key included before it signs and retired ' +
      'keys for as long as tokens they signed may live.',
    tag: 'Discovery',
    responses: { 200: { description: `The key set. ${cacheable}` } },
  },
  'GET /.well-known/oauth-authorization-server': {
    operationId: 'authorizationServerMetadata',
    summary: 'Authorization server metadata',
    description: 'RFC 8414: endpoints, grant types, authentication methods and algorithms of this issuer.',
    tag: 'Discovery',
    responses: metadata('The RFC 8414 metadata document.'),
  },
  'GET /.well-known/openid-configuration': {
    operationId: 'openidConfiguration',
    summary: 'OpenID Provider configuration',
    description:
      'OpenID Connect Discovery 1.0: the RFC 8414 document plus UserInfo, subject types and claims.',
    tag: 'Discovery',
    responses: metadata('The OpenID Provider configuration.'),
  },
  'GET /.well-known/oauth-protected-resource': {
    operationId: 'protectedResourceMetadata',
    summary: 'Protected resource metadata',
    description:
      'RFC 9728: the metadata of the Bearer APIs (developer API, logout, UserInfo), named in every Bearer challenge. ' +
      "When the issuer has a path, the document lives at this path followed by the issuer's.",
    tag: 'Discovery',
    responses: metadata('The RFC 9728 metadata document.'),
  },
};
