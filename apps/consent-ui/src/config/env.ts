import {
  envHexKey32,
  envIssuer,
  loadEnvParts,
  serviceRuntimeSchema,
  serviceUrlsSchema,
} from '@authz/shared/env';
import { z } from 'zod';

/** The consent-ui service's environment, validated once at start-up (docs/contract.md). */
const settingsSchema = z.object({
  /** The public base URL: hosted-page links and redirects are built under its path. */
  JWT_ISSUER: envIssuer().default('http://localhost:3000'),
  /** Only a purpose-derived key is used: the sign-in form's CSRF key (docs/hosted-pages.md #4). */
  SECRET_HASH_KEY: envHexKey32(),
});

export type ConsentUiEnv = ReturnType<typeof loadConsentUiEnv>;

export function loadConsentUiEnv(source: NodeJS.ProcessEnv = process.env) {
  const { runtime, settings, services } = loadEnvParts(
    {
      runtime: serviceRuntimeSchema('consent-ui'),
      settings: settingsSchema,
      services: serviceUrlsSchema(['identity', 'oauth', 'wallet-bridge'] as const),
    },
    source,
  );
  return {
    runtime,
    issuer: settings.JWT_ISSUER,
    secretHashKey: settings.SECRET_HASH_KEY,
    services,
  };
}
