import { Prisma } from '../generated/prisma/client.js';
import type { ClientConfig } from './client-config.js';

/** The columns a validated configuration writes (jwks as JSON, or SQL NULL). */
export function configData(config: ClientConfig) {
  return {
    name: config.name,
    description: config.description,
    redirectUris: config.redirectUris,
    scopes: config.scopes,
    grantTypes: config.grantTypes,
    responseTypes: config.responseTypes,
    tokenEndpointAuthMethod: config.tokenEndpointAuthMethod,
    enabled: config.enabled,
    jwks: config.jwks === null ? Prisma.DbNull : (config.jwks as Prisma.InputJsonValue),
    jwksUri: config.jwksUri,
  };
}
